/**
 * The in-sandbox loopback forwarder: a stdlib-only Python program that listens on
 * 127.0.0.1:PORT inside a sandbox without network and copies each connection, both ways, to the
 * attempt gateway's unix socket (bind-mounted read-only into the sandbox). Python because the
 * runner image must have it already (the sandbox's executor is Python): nothing is added to the
 * image and nothing is mounted for it (docs/decisions.md, issue 25).
 *
 * It binds and probes the socket first, then forks: the parent prints the port and exits, so the
 * starting command returns once the forwarder is ready; the child leaves the command's session
 * (`setsid`, before the parent exits: the executor keeps such a process after the command ends), drops its stdio and serves until
 * the sandbox is removed. A thread per direction per connection: agents hold a few connections.
 */
export const LOOPBACK_FORWARDER_SCRIPT = String.raw`
import os, socket, sys, threading, time

socket_path, port = sys.argv[1], int(sys.argv[2])
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    listener.bind(('127.0.0.1', port))
    listener.listen(128)
except OSError as error:
    sys.stderr.write('agentbench forwarder: cannot listen on 127.0.0.1:%d: %s\n' % (port, error.strerror or error))
    sys.exit(3)
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect(socket_path)
except OSError as error:
    sys.stderr.write('agentbench forwarder: cannot connect to the gateway socket %s: %s\n' % (socket_path, error.strerror or error))
    sys.exit(3)
probe.close()

# The executor ends what is left in a command's session when the command exits: the parent
# returns only once the child has left it.
ready_read, ready_write = os.pipe()
if os.fork() > 0:
    os.close(ready_write)
    os.read(ready_read, 1)
    sys.stdout.write('%d\n' % listener.getsockname()[1])
    sys.stdout.flush()
    os._exit(0)

os.setsid()
os.write(ready_write, b'.')
os.close(ready_write)
os.close(ready_read)
null = os.open(os.devnull, os.O_RDWR)
for descriptor in (0, 1, 2):
    os.dup2(null, descriptor)


def pump(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    try:
        target.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(client):
    # Without it, a small request written in two pieces waits for the peer's delayed ACK (40 ms).
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    gateway = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        gateway.connect(socket_path)
    except OSError:
        client.close()
        gateway.close()
        return
    answer = threading.Thread(target=pump, args=(gateway, client), daemon=True)
    answer.start()
    pump(client, gateway)
    answer.join()
    client.close()
    gateway.close()


while True:
    try:
        client, _ = listener.accept()
    except OSError:
        # Out of descriptors or threads for a moment: the backlog holds the connection.
        time.sleep(0.05)
        continue
    try:
        threading.Thread(target=serve, args=(client,), daemon=True).start()
    except RuntimeError:
        client.close()
`;
