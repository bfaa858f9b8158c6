# AgentBench in-sandbox executor: one long-lived process that runs commands and file
# operations for the host, so a command costs a fork+exec instead of a `docker exec`.
#
# Protocol: JSON lines. Requests on stdin, responses on stdout (one writer lock).
#   {"id", "op": "exec", "argv" | "shell", "cwd", "env", "stdin_b64", "timeout_ms"}
#     -> {"id", "type": "stdout" | "stderr", "data_b64"} ... then
#        {"id", "type": "exit", "code", "signal", "timed_out", "oom", "killed_by"}
#   {"id", "op": "kill", "target"}                       abort a running exec
#   {"id", "op": "read" | "write" | "list" | "stat" | "mkdir", "path", ...}
#     -> ({"id", "type": "chunk" | "entries", ...} ...) {"id", "type": "result", ...}
#   any request may instead end with {"id", "type": "error", "kind", "message"}.
# Started as `python3 -u -c <bootstrap> agentbench-executor WORKDIR`; the bootstrap reads
# this file as the first stdin line. Keep it compatible with Python 3.6 and stdlib only.
import base64
import errno
import fcntl
import json
import os
import resource
import selectors
import signal
import stat
import subprocess
import sys
import threading
import time
import traceback

PROTOCOL_VERSION = 1
MARKER_NAME = 'AGENTBENCH_COMMAND_ID'
READ_SIZE = 1048576
# Larger command pipes: a flood then arrives in fewer, bigger messages.
PIPE_SIZE = 1048576
F_SETPIPE_SZ = 1031
FILE_CHUNK_SIZE = 1048576
LIST_BATCH_SIZE = 1000
# How long a command's pipes may stay open after its main process exited (held by a
# process that left the command's session on purpose) before we stop reading them.
DRAIN_GRACE_SECONDS = 0.25
KILL_ROUNDS = 200
# Rounds spent stopping a command's processes before they are killed (see kill_tree).
FREEZE_ROUNDS = 50

write_lock = threading.Lock()
running_lock = threading.Lock()
running = {}
workdir = sys.argv[2] if len(sys.argv) > 2 else os.getcwd()
own_pid = os.getpid()
executor_token = '%d-%d' % (own_pid, int(time.time() * 1000))
# Under gVisor the container's pids limit counts the host threads of gVisor's own kernel, not
# the sandbox's processes, so the host asks for a cap on each command's processes instead
# (RLIMIT_NPROC: gVisor counts every process of the user inside the sandbox). Popped so that
# commands do not inherit the variable.
MAX_PROCESSES_VARIABLE = 'AGENTBENCH_COMMAND_MAX_PROCESSES'
command_max_processes = os.environ.pop(MAX_PROCESSES_VARIABLE, None)
command_max_processes = int(command_max_processes) if command_max_processes else None


def limit_command_processes():
    resource.setrlimit(resource.RLIMIT_NPROC, (command_max_processes, command_max_processes))


def send(message):
    data = (json.dumps(message, separators=(',', ':')) + '\n').encode('utf-8')
    with write_lock:
        view = memoryview(data)
        while view:
            written = os.write(1, view)
            view = view[written:]


def encode(data):
    return base64.b64encode(data).decode('ascii')


class RequestError(Exception):
    def __init__(self, kind, message, **fields):
        Exception.__init__(self, message)
        self.kind = kind
        self.message = message
        self.fields = fields


# ---------------------------------------------------------------- processes

def read_stat(pid):
    """(state, ppid, pgrp, session) of a process, or None when it is gone."""
    try:
        with open('/proc/%s/stat' % pid, 'rb') as handle:
            content = handle.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: the fields follow the last ')'.
    fields = content[content.rfind(b')') + 2:].split()
    if len(fields) < 4:
        return None
    return fields[0].decode('ascii', 'replace'), int(fields[1]), int(fields[2]), int(fields[3])


def has_marker(pid, marker):
    try:
        with open('/proc/%s/environ' % pid, 'rb') as handle:
            return marker in handle.read().split(b'\0')
    except OSError:
        return False


def find_processes(root_pid, session_id, marker):
    """Live processes that belong to a command: its descendants, its session and process
    group, and (when marker is given) any process still carrying its environment marker,
    which catches a grandchild that called setsid and was then orphaned."""
    table = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        pid = int(name)
        if pid == own_pid or pid == 1:
            continue
        info = read_stat(pid)
        if info is None or info[0] in ('Z', 'X', 'x'):
            continue
        table[pid] = info
    children = {}
    for pid, info in table.items():
        children.setdefault(info[1], []).append(pid)
    found = set()
    stack = [root_pid]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    if root_pid in table:
        found.add(root_pid)
    for pid, info in table.items():
        if info[2] == session_id or info[3] == session_id:
            found.add(pid)
        elif marker is not None and pid not in found and has_marker(pid, marker):
            found.add(pid)
    return found


def signal_group(group_id, signal_number):
    try:
        os.killpg(group_id, signal_number)
    except OSError:
        pass


def signal_each(pids, signal_number):
    for pid in pids:
        try:
            os.kill(pid, signal_number)
        except OSError:
            pass


def kill_tree(root_pid, session_id, marker):
    """SIGKILL everything that belongs to a command, repeating until a scan finds nothing.
    Everything found is stopped first, until a scan finds nothing new: a fork bomb then
    cannot refill what each kill frees (under gVisor, killing is slower than forking)."""
    stopped = set()
    for round_number in range(KILL_ROUNDS):
        signal_group(session_id, signal.SIGSTOP)
        victims = find_processes(root_pid, session_id, marker)
        if not victims:
            return True
        fresh = victims - stopped
        signal_each(fresh, signal.SIGSTOP)
        stopped |= fresh
        if fresh and round_number < FREEZE_ROUNDS:
            continue
        signal_group(session_id, signal.SIGKILL)
        signal_each(victims, signal.SIGKILL)
        if round_number > 2:
            time.sleep(0.001 * min(round_number, 20))
    return False


def read_oom_kills():
    """The memory cgroup's OOM kill counter (v1 memory.oom_control, v2 memory.events)."""
    for path in ('/sys/fs/cgroup/memory/memory.oom_control', '/sys/fs/cgroup/memory.events'):
        try:
            with open(path, 'r') as handle:
                for line in handle:
                    parts = line.split()
                    if len(parts) == 2 and parts[0] == 'oom_kill':
                        return int(parts[1])
        except (OSError, ValueError):
            continue
    return None


def has_exited(pid):
    """True once the child exited, without reaping it (its pid keeps naming its group)."""
    try:
        result = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return result is not None and result.si_pid != 0


class Command(object):
    def __init__(self, request):
        self.id = request['id']
        self.request = request
        self.marker = '%s=%s-%s' % (MARKER_NAME, executor_token, self.id)
        self.process = None
        self.is_aborted = False
        self.is_timed_out = False
        self.kill_lock = threading.Lock()
        self.thread = None

    def kill(self):
        process = self.process
        if process is None:
            return
        with self.kill_lock:
            kill_tree(process.pid, process.pid, self.marker.encode('utf-8'))

    def abort(self):
        self.is_aborted = True
        threading.Thread(target=self.kill, daemon=True).start()

    def run(self):
        request = self.request
        argv = request.get('argv')
        if argv is None:
            argv = ['/bin/sh', '-c', request['shell']]
        if not isinstance(argv, list) or not argv:
            raise RequestError('invalid_request', 'argv must be a non-empty list of strings')
        cwd = request.get('cwd') or workdir
        env = dict(os.environ)
        env.update(request.get('env') or {})
        name, _, value = self.marker.partition('=')
        env[name] = value
        stdin_data = None
        if request.get('stdin_b64') is not None:
            stdin_data = base64.b64decode(request['stdin_b64'])
        timeout_ms = request.get('timeout_ms')
        oom_before = read_oom_kills()
        try:
            self.process = subprocess.Popen(
                argv, cwd=cwd, env=env, close_fds=True, start_new_session=True,
                stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                preexec_fn=limit_command_processes if command_max_processes is not None else None)
        except OSError as error:
            return self.report_spawn_error(error, argv, cwd)
        process = self.process
        try:
            # Raising is allowed without privileges: the memory limit then kills the
            # command (and what it spawns, which inherits the value), not the executor.
            with open('/proc/%d/oom_score_adj' % process.pid, 'w') as handle:
                handle.write('1000')
        except OSError:
            pass
        if self.is_aborted:
            # The abort arrived while the process was being started.
            self.kill()
        if stdin_data is not None:
            threading.Thread(target=feed_stdin, args=(process.stdin, stdin_data), daemon=True).start()
        self.pump(process, timeout_ms)
        with self.kill_lock:
            # After an abort's sweep, so the pid it uses cannot be reused meanwhile.
            process.wait()
        code = process.returncode
        signal_number = None
        killed_by = None
        is_oom = False
        if self.is_timed_out:
            code, signal_number, killed_by = 124, signal.SIGKILL, 'timeout'
        elif self.is_aborted:
            code, signal_number, killed_by = 137, signal.SIGKILL, 'abort'
        elif code < 0 or code == 128 + signal.SIGKILL:
            signal_number = -code if code < 0 else signal.SIGKILL
            oom_after = read_oom_kills()
            is_oom = signal_number == signal.SIGKILL and oom_before is not None and oom_after is not None and oom_after > oom_before
            if code < 0 or is_oom:
                killed_by = 'oom' if is_oom else 'signal'
                code = 128 + signal_number
            else:
                signal_number = None
        send({'id': self.id, 'type': 'exit', 'code': code, 'signal': signal_number, 'timed_out': self.is_timed_out,
              'oom': is_oom, 'killed_by': killed_by})

    def report_spawn_error(self, error, argv, cwd):
        if error.errno == errno.ENOENT and getattr(error, 'filename', None) == cwd and not os.path.isdir(cwd):
            raise RequestError('file_not_found', 'working directory %s does not exist' % cwd, path=cwd)
        if error.errno == errno.ENOTDIR and getattr(error, 'filename', None) == cwd:
            raise RequestError('not_a_directory', 'working directory %s is not a directory' % cwd, path=cwd)
        # As a shell would: 127 for a missing program, 126 when it cannot run.
        if error.errno == errno.ENOENT:
            message, code = '%s: command not found\n' % argv[0], 127
        else:
            message, code = '%s: cannot run: %s\n' % (argv[0], error.strerror), 126
        send({'id': self.id, 'type': 'stderr', 'data_b64': encode(message.encode('utf-8'))})
        send({'id': self.id, 'type': 'exit', 'code': code, 'signal': None, 'timed_out': False, 'oom': False,
              'killed_by': None})

    def pump(self, process, timeout_ms):
        for pipe in (process.stdout, process.stderr):
            try:
                fcntl.fcntl(pipe.fileno(), F_SETPIPE_SZ, PIPE_SIZE)
            except OSError:
                pass
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ, 'stdout')
        selector.register(process.stderr, selectors.EVENT_READ, 'stderr')
        exit_handle = None
        if hasattr(os, 'pidfd_open'):
            try:
                exit_handle = os.pidfd_open(process.pid)
                selector.register(exit_handle, selectors.EVENT_READ, 'exit')
            except OSError:
                exit_handle = None
        deadline = None if not timeout_ms else time.monotonic() + timeout_ms / 1000.0
        open_streams = 2
        exited_at = None
        try:
            # Until the main process exited and both pipes reached EOF; a pipe still held
            # after the exit (by a process that left the session) gets a short grace.
            while open_streams > 0 or exited_at is None:
                now = time.monotonic()
                wait = None
                if deadline is not None and exited_at is None:
                    wait = max(0.0, deadline - now)
                if exited_at is not None:
                    remaining = max(0.0, exited_at + DRAIN_GRACE_SECONDS - now)
                    wait = remaining if wait is None else min(wait, remaining)
                elif exit_handle is None:
                    wait = 0.05 if wait is None else min(wait, 0.05)
                for key, _ in selector.select(wait):
                    if key.data == 'exit':
                        selector.unregister(exit_handle)
                        exited_at = self.on_main_exit(process)
                        continue
                    chunk = os.read(key.fd, READ_SIZE)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        open_streams -= 1
                        continue
                    send({'id': self.id, 'type': key.data, 'data_b64': encode(chunk)})
                now = time.monotonic()
                if exited_at is None and exit_handle is None and has_exited(process.pid):
                    exited_at = self.on_main_exit(process)
                if exited_at is None and deadline is not None and now >= deadline:
                    self.is_timed_out = True
                    self.kill()
                    # Everything is dead now: read what is left, then stop.
                    if exit_handle is not None:
                        selector.unregister(exit_handle)
                    exited_at = now
                elif exited_at is not None and now >= exited_at + DRAIN_GRACE_SECONDS:
                    break
        finally:
            selector.close()
            if exit_handle is not None:
                os.close(exit_handle)
            process.stdout.close()
            process.stderr.close()

    def on_main_exit(self, process):
        # The main process is a zombie until reaped, so its pid still names its session:
        # what is left in the session (background jobs, a fork bomb) goes with it, in
        # rounds until none is left. A process that left the session on purpose
        # (setsid, a daemon) is kept.
        kill_tree(process.pid, process.pid, None)
        return time.monotonic()


def feed_stdin(pipe, data):
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass
    finally:
        try:
            pipe.close()
        except OSError:
            pass


# ---------------------------------------------------------------- files

def is_inside(root, path):
    return path == root or path.startswith(root.rstrip('/') + '/')


def first_link_target(root, path):
    """Target of the first symbolic link on the way from `root` down to `path`, or None."""
    relative = os.path.relpath(path, root)
    if relative == '.' or relative == '..' or relative.startswith('../'):
        return None
    current = root
    for part in relative.split('/'):
        current = os.path.join(current, part)
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return os.path.join(os.path.dirname(current), os.readlink(current))
        except OSError:
            return None
    return None


def resolve(path):
    """Real path of `path` (an absolute path the host already checked lexically); refuses
    one that a symbolic link takes outside the workspace, or whose link cannot be followed
    at all (/proc/1/root/... without the right to: it cannot be shown to stay inside)."""
    if not isinstance(path, str) or not path.startswith('/'):
        raise RequestError('invalid_request', 'path must be an absolute string, found %r' % (path,))
    root = os.path.realpath(workdir)
    try:
        real = os.path.realpath(path)
    except OSError as error:
        target = first_link_target(os.path.normpath(workdir), os.path.normpath(path))
        if target is None:
            raise os_error(error, path)
        raise RequestError('symlink_blocked', 'path %s goes through a symbolic link to %s, which cannot be followed (%s)'
                           % (path, target, error.strerror), path=path, target=target)
    if not is_inside(root, real):
        raise RequestError('symlink_blocked', 'path %s goes through a symbolic link to %s, outside the workspace'
                           % (path, real), path=path, target=real)
    return real


def os_error(error, path):
    code = error.errno
    if code == errno.ENOENT:
        return RequestError('file_not_found', 'no such file or directory: %s' % path, path=path)
    if code == errno.ENOTDIR:
        return RequestError('not_a_directory', 'a component of %s is not a directory' % path, path=path)
    if code == errno.EISDIR:
        return RequestError('is_a_directory', '%s is a directory' % path, path=path)
    if code == errno.EEXIST:
        return RequestError('not_a_directory', '%s (or a parent of it) exists and is not a directory' % path, path=path)
    if code == errno.ELOOP:
        return RequestError('symlink_blocked', 'too many symbolic links in %s' % path, path=path, target=path)
    if code in (errno.EACCES, errno.EPERM):
        return RequestError('permission_denied', 'permission denied: %s' % path, path=path)
    return RequestError('internal', '%s: %s' % (path, error.strerror), path=path)


def entry_type(mode):
    if stat.S_ISREG(mode):
        return 'file'
    if stat.S_ISDIR(mode):
        return 'directory'
    if stat.S_ISLNK(mode):
        return 'symlink'
    return 'other'


def op_read(request):
    path = request.get('path')
    real = resolve(path)
    try:
        handle = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise os_error(error, path)
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise RequestError('is_a_directory', '%s is a directory, not a file' % path, path=path)
        if not stat.S_ISREG(info.st_mode):
            raise RequestError('not_a_file', '%s is not a regular file' % path, path=path)
        total = 0
        while True:
            chunk = os.read(handle, FILE_CHUNK_SIZE)
            if not chunk:
                break
            total += len(chunk)
            send({'id': request['id'], 'type': 'chunk', 'data_b64': encode(chunk)})
    finally:
        os.close(handle)
    return {'size': total}


def op_write(request):
    path = request.get('path')
    real = resolve(path)
    data = base64.b64decode(request.get('data_b64') or '')
    parent = os.path.dirname(real)
    try:
        os.makedirs(parent, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        flags |= os.O_APPEND if request.get('append') else os.O_TRUNC
        handle = os.open(real, flags, 0o666)
    except OSError as error:
        raise os_error(error, path)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view):]
    finally:
        os.close(handle)
    return {'size': len(data)}


def op_mkdir(request):
    path = request.get('path')
    real = resolve(path)
    try:
        os.makedirs(real, exist_ok=True)
    except OSError as error:
        raise os_error(error, path)
    return {'real_path': real}


def op_stat(request):
    path = request.get('path')
    real = resolve(path)
    try:
        info = os.lstat(real)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return {'exists': False, 'real_path': real}
        raise os_error(error, path)
    return {'exists': True, 'real_path': real, 'entry_type': entry_type(info.st_mode), 'size': info.st_size,
            'mode': stat.S_IMODE(info.st_mode)}


def op_list(request):
    path = request.get('path')
    real = resolve(path)
    try:
        info = os.stat(real)
    except OSError as error:
        raise os_error(error, path)
    if not stat.S_ISDIR(info.st_mode):
        raise RequestError('not_a_directory', '%s is not a directory' % path, path=path)
    is_recursive = bool(request.get('recursive'))
    batch = []
    count = 0
    pending = ['']
    while pending:
        relative = pending.pop()
        folder = os.path.join(real, relative) if relative else real
        try:
            names = sorted(os.listdir(folder))
        except OSError as error:
            if relative:
                continue
            raise os_error(error, path)
        for name in names:
            child = relative + '/' + name if relative else name
            try:
                child_info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            kind = entry_type(child_info.st_mode)
            batch.append([child, kind, child_info.st_size if kind == 'file' else 0])
            count += 1
            if is_recursive and kind == 'directory':
                pending.append(child)
            if len(batch) >= LIST_BATCH_SIZE:
                send({'id': request['id'], 'type': 'entries', 'entries': batch})
                batch = []
    if batch:
        send({'id': request['id'], 'type': 'entries', 'entries': batch})
    return {'count': count}


FILE_OPERATIONS = {'read': op_read, 'write': op_write, 'mkdir': op_mkdir, 'stat': op_stat, 'list': op_list}


# ---------------------------------------------------------------- dispatch

def send_error(request_id, error):
    message = {'id': request_id, 'type': 'error', 'kind': error.kind, 'message': error.message}
    message.update(error.fields)
    send(message)


def run_exec(command):
    try:
        command.run()
    except RequestError as error:
        send_error(command.id, error)
    except Exception as error:  # noqa: BLE001 - reported to the host, never fatal here
        send_error(command.id, RequestError('internal', 'executor: %s: %s' % (type(error).__name__, error),
                                            trace=traceback.format_exc()))
    finally:
        with running_lock:
            running.pop(command.id, None)


def run_file_operation(handler, request):
    try:
        result = handler(request)
        result['id'] = request['id']
        result['type'] = 'result'
        send(result)
    except RequestError as error:
        send_error(request['id'], error)
    except Exception as error:  # noqa: BLE001
        send_error(request['id'], RequestError('internal', 'executor: %s: %s' % (type(error).__name__, error),
                                               trace=traceback.format_exc()))


def handle(request):
    request_id = request.get('id')
    op = request.get('op')
    if op == 'exec':
        command = Command(request)
        command.thread = threading.Thread(target=run_exec, args=(command,), daemon=True)
        with running_lock:
            running[request_id] = command
        command.thread.start()
    elif op == 'kill':
        with running_lock:
            command = running.get(request.get('target'))
        if command is not None:
            command.abort()
        send({'id': request_id, 'type': 'result', 'found': command is not None})
    elif op in FILE_OPERATIONS:
        threading.Thread(target=run_file_operation, args=(FILE_OPERATIONS[op], request), daemon=True).start()
    else:
        send_error(request_id, RequestError('invalid_request', 'unknown op %r' % (op,)))


def main():
    source = sys.stdin.buffer
    send({'type': 'ready', 'version': PROTOCOL_VERSION, 'pid': own_pid, 'uid': os.getuid(), 'gid': os.getgid(),
          'python': '%d.%d.%d' % sys.version_info[:3], 'has_oom_counter': read_oom_kills() is not None})
    while True:
        line = source.readline()
        if not line:
            break
        try:
            request = json.loads(line.decode('utf-8'))
            if not isinstance(request, dict):
                raise ValueError('a request must be a JSON object')
        except ValueError as error:
            send({'id': None, 'type': 'error', 'kind': 'invalid_request', 'message': 'bad request line: %s' % error})
            continue
        try:
            handle(request)
        except Exception as error:  # noqa: BLE001
            send_error(request.get('id'), RequestError('internal', 'executor: %s' % error))
    # The host went away: nothing may outlive it. A command still starting sees the
    # abort flag right after its spawn, so wait (bounded) for every command thread.
    with running_lock:
        commands = list(running.values())
    for command in commands:
        command.is_aborted = True
        command.kill()
    deadline = time.monotonic() + 5
    for command in commands:
        command.thread.join(max(0.0, deadline - time.monotonic()))


main()
