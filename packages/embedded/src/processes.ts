import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

let stopAsked = false;

/**
 * Resolves once SIGINT or SIGTERM asks the process to stop; later ones are ignored, so that a signal sent to the
 * whole process group (systemd, a terminal's Ctrl-C) and the supervisor's own do not kill a worker mid-shutdown.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((ok) => {
    const asked = (signal: NodeJS.Signals) => {
      stopAsked = true;
      ok(signal);
    };
    process.on('SIGINT', asked);
    process.on('SIGTERM', asked);
  });
}

/** Whether this process was asked to stop (`stopSignal`): what it started may be ending because of the same signal. */
export function stopping(): boolean {
  return stopAsked;
}

const PROC = existsSync('/proc/self/stat');

/**
 * When process `pid` started (clock ticks since boot, from /proc), or undefined when it is gone or a zombie: a process
 * killed outright stays a zombie until its parent reaps it, and `kill -0` still finds it. Where there is no /proc,
 * whether `kill -0` finds it ('running').
 */
export function startedAt(pid: number): string | undefined {
  if (!(pid > 0)) return undefined;
  if (!PROC) {
    try {
      process.kill(pid, 0);
      return 'running';
    } catch {
      return undefined;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's parenthesis: the state, then 18 fields, then the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

export const alive = (pid: number): boolean => startedAt(pid) !== undefined;

/** This process, as a file records it: its pid and start time, which a later process given the same pid does not share. */
export function selfIdentity(): string {
  return `${process.pid} ${startedAt(process.pid) ?? ''}`;
}

/** Whether the process a file recorded (`selfIdentity`, or an older file's bare pid) is still the one running. */
export function stillRunning(identity: string): boolean {
  const [pid, started] = identity.trim().split(' ');
  const now = startedAt(Number(pid));
  return now !== undefined && (!started || started === now);
}

/**
 * Whether `kill -0` finds process `pid`, a zombie included: how PostgreSQL's check of a lock file decides that the
 * server it names still runs (a process it may not signal counts as gone, as there).
 */
function listed(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH' && (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Waits until process `pid` is gone (at most `ms`): ended, or also reaped when `reaped` is set. */
export async function gone(pid: number, ms: number, reaped = false): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (reaped ? listed(pid) : alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * Stops a service it started (PostgreSQL: fast shutdown; Redis: shutdown) once process `owner` is gone, had it not
 * stopped it itself: a server killed with SIGKILL leaves nothing behind for more than a second, even while it is a
 * zombie its parent has not reaped. A shell loop, a few hundred kilobytes.
 */
export function stopWhenGone(owner: number, servicePid: number): void {
  const script = [
    'running() { if [ -r /proc/self/stat ]; then s=$(sed "s/.*) //" "/proc/$1/stat" 2>/dev/null) && [ "${s%% *}" != Z ]; else kill -0 "$1" 2>/dev/null; fi; }',
    'while running "$1" && running "$2"; do sleep 1; done',
    'running "$1" || kill -INT "$2" 2>/dev/null',
  ].join('\n');
  spawn('sh', ['-c', script, 'patchbay-watchdog', String(owner), String(servicePid)], { detached: true, stdio: 'ignore' }).unref();
}
