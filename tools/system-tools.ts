// What `./tessera start` adds from the system's packages when it can: espeak-ng, the embedded voice (text to speech
// with no account). Installed in the background with apt-get when the studio runs as root on Debian or Ubuntu; the
// voice appears once it is there (the audio extension looks again). Elsewhere, a line says how to get it.
import { execFileSync, spawn } from 'node:child_process';

const has = (cmd: string, args = ['--version']) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
};

export function offerSystemTools(): void {
  if (process.env.TESSERA_NO_SYSTEM_TOOLS === '1' || has('espeak-ng')) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !has('apt-get', ['--version'])) {
    console.log('tessera: the embedded voice needs espeak-ng (Debian/Ubuntu: sudo apt-get install espeak-ng)');
    return;
  }
  console.log('tessera: installing espeak-ng (the embedded voice) in the background ...');
  const child = spawn(
    'sh',
    [
      '-c',
      'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends espeak-ng >/dev/null 2>&1 || ' +
        '(apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends espeak-ng >/dev/null 2>&1)',
    ],
    { stdio: 'ignore', detached: true },
  );
  child.on('exit', (code) =>
    console.log(
      code === 0
        ? 'tessera: espeak-ng installed: the embedded voice is ready'
        : 'tessera: espeak-ng could not be installed (apt-get failed); the embedded voice stays off',
    ),
  );
  child.unref();
}
