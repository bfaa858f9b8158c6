/** `--port` of the commands that serve on the loopback interface (proxy, view). */
export const LOOPBACK_PORT_OPTION = {
  type: 'number' as const,
  default: 0,
  describe: 'Port on 127.0.0.1 (default: any free port, printed)',
};
