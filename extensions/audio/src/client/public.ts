// What other extensions' pages use of voice: recording from the microphone.
export { useRecorder } from './recorder.ts';
