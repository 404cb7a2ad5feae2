// Recording from the microphone (MediaRecorder): start, then stop for the recording as a file, for transcription.
import { describeError } from '@tessera/sdk';
import { useRef, useState } from 'react';

export function useRecorder() {
  const [recording, setRecording] = useState(false);
  const [error, setError] = useState('');
  const rec = useRef<{ recorder: MediaRecorder; chunks: Blob[]; stream: MediaStream } | null>(null);
  const start = async () => {
    setError('');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
      recorder.start();
      rec.current = { recorder, chunks, stream };
      setRecording(true);
    } catch (e) {
      setError(describeError(e));
    }
  };
  /** The recording as a file (webm, or what the browser records), or undefined when nothing was recorded. */
  const stop = () =>
    new Promise<File | undefined>((resolve) => {
      const r = rec.current;
      rec.current = null;
      setRecording(false);
      if (!r) return resolve(undefined);
      r.recorder.onstop = () => {
        for (const t of r.stream.getTracks()) t.stop();
        const type = r.recorder.mimeType || 'audio/webm';
        const ext = type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';
        resolve(r.chunks.length ? new File(r.chunks, `recording.${ext}`, { type }) : undefined);
      };
      r.recorder.stop();
    });
  return { recording, error, start, stop };
}
