// `dsmc serve`: browser mode, the desktop app's views in a browser (loopback by default, token in the URL).
import type { CliCommand } from '../command.js';
import { DATA_DIR_OPTION } from '../store-args.js';

/** The --port value, checked (0: any free port). */
function portOf(text: unknown): number {
  const port = Number(text);
  if (typeof text !== 'string' || !/^\d+$/.test(text) || port > 65535) throw new Error(`--port: got "${String(text)}"; expected a port number from 0 to 65535 (0: any free port)`);
  return port;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'serve [--port N] [--host 127.0.0.1] [--data-dir DIR]',
  summary: 'Serve the app in a browser: prints a URL with a random access token (open it, or tunnel the port over SSH).\n' +
    'Binds to loopback unless --host says otherwise; Ctrl-C stops the server (runs it started are stopped too).',
  options: { ...DATA_DIR_OPTION, port: { type: 'string', default: '8080' }, host: { type: 'string', default: '127.0.0.1' } },
  async run(args) {
    const { startServer } = await import('../../server/serve.js');
    const server = await startServer({ port: portOf(args.values.port), host: args.values.host as string, dataDir: args.values['data-dir'] as string | undefined });
    process.stdout.write(`DSMC Studio is serving ${server.service.store.path}\nopen ${server.url}\n`);
    if (args.values.host !== '127.0.0.1' && args.values.host !== 'localhost' && args.values.host !== '::1') {
      process.stderr.write(`warning: listening on ${args.values.host as string}, not loopback: anyone who can reach it and has the token can run jobs\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); void server.close().then(resolve); };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};
