// The embedded voice: espeak-ng (Debian's package; `./tessera start` installs it when it can), no account needed. It
// writes 16-bit mono WAV at 22 050 Hz to stdout; wav.ts makes the rest (resampled WAV, PCM, MP3), ogg.ts Ogg Opus. The binary is looked
// for once, on first use; without it the provider offers no voices, and speaking says how to get it.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { SpeakRequest, SpeechAudio, SpeechProviderDefinition, VoiceInfo } from '../shared/index.ts';
import { texts } from './texts.ts';

/** The voices offered: espeak-ng's for the languages a studio's users speak most (when installed). */
const VOICES: { id: string; name: string; code: string; lang: string; preview: string }[] = [
  { id: 'en-us', name: 'English (US)', code: 'en-US', lang: 'English', preview: 'Hello! I read your answers aloud.' },
  { id: 'en', name: 'English (UK)', code: 'en-GB', lang: 'English', preview: 'Hello! I read your answers aloud.' },
  { id: 'cmn', name: '中文（普通话）', code: 'zh-CN', lang: '中文', preview: '你好！我来朗读你的回答。' },
  { id: 'ja', name: '日本語', code: 'ja', lang: '日本語', preview: 'こんにちは。回答を読み上げます。' },
  { id: 'es', name: 'Español', code: 'es', lang: 'Español', preview: '¡Hola! Leo tus respuestas en voz alta.' },
  { id: 'fr', name: 'Français', code: 'fr', lang: 'Français', preview: 'Bonjour ! Je lis vos réponses à voix haute.' },
  { id: 'de', name: 'Deutsch', code: 'de', lang: 'Deutsch', preview: 'Hallo! Ich lese Ihre Antworten vor.' },
  {
    id: 'pt',
    name: 'Português',
    code: 'pt',
    lang: 'Português',
    preview: 'Olá! Eu leio as suas respostas em voz alta.',
  },
];
/** espeak-ng's own pace in words a minute, at speed 1. */
const WPM = 160;
const LIMIT_MS = 15_000;

let found: { at: number; bin: Promise<string | undefined> } | undefined;
/**
 * The espeak-ng binary, if there is one (ESPEAK_NG_PATH, else on the PATH). Not finding it is remembered for a minute:
 * `./tessera start` may be installing it.
 */
export function espeakBinary(): Promise<string | undefined> {
  if (found && Date.now() - found.at < 60_000) return found.bin;
  const bin = process.env.ESPEAK_NG_PATH || 'espeak-ng';
  const probe = promisify(execFile)(bin, ['--version'], { timeout: 5000 }).then(
    () => bin,
    () => undefined,
  );
  found = { at: Date.now(), bin: probe };
  // Found: kept for good.
  void probe.then((b) => b && (found = { at: Infinity, bin: probe }));
  return probe;
}

export const espeak: SpeechProviderDefinition = {
  key: 'espeak',
  label: { 'en-US': 'Embedded voice (espeak-ng)', 'zh-CN': '内置语音（espeak-ng）' },
  async voices(): Promise<VoiceInfo[]> {
    if (!(await espeakBinary())) return [];
    return VOICES.map((v) => ({
      voice_id: `espeak:${v.id}`,
      name: v.name,
      language_code: v.code,
      language_name: v.lang,
      preview_text: v.preview,
      is_system_voice: true,
      provider: 'espeak',
    }));
  },
  async speak(req: SpeakRequest): Promise<SpeechAudio> {
    const bin = await espeakBinary();
    if (!bin) throw texts.error(400, 'noEspeak');
    if (!VOICES.some((v) => v.id === req.voice)) throw texts.error(400, 'noVoice', { voice: `espeak:${req.voice}` });
    const wav = await run(bin, ['-v', req.voice, '-s', String(Math.round(WPM * req.speed)), '--stdout'], req);
    const { readWav, resample, writeWav, encodeMp3, durationOf } = await import('./wav.ts');
    const pcm = resample(readWav(wav), req.sampleRate);
    const duration = durationOf(pcm);
    if (req.format === 'pcm')
      return {
        audio: Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength),
        format: 'pcm',
        duration,
      };
    if (req.format === 'mp3') return { audio: await encodeMp3(pcm), format: 'mp3', duration };
    if (req.format === 'ogg' || req.format === 'opus') {
      const { encodeOggOpus } = await import('./ogg.ts');
      return { audio: await encodeOggOpus(pcm), format: req.format, duration };
    }
    return { audio: writeWav(pcm), format: 'wav', duration };
  },
};

/** Runs espeak-ng with the text on stdin (never as an argument), bounded in time; stdout is the WAV. */
function run(bin: string, args: string[], req: SpeakRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    const abort = () => child.kill('SIGKILL');
    req.signal.addEventListener('abort', abort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      req.signal.removeEventListener('abort', abort);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`espeak-ng stopped (${code ?? 'killed'}): ${err.trim().slice(0, 200)}`));
    });
    child.stdin.end(req.text);
  });
}
