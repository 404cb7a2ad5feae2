// The audio extension's refusals in the studio's languages (keys `audio.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('audio', {
  noVoices: [
    'No voice is available in this space: install espeak-ng on the studio’s machine, or add a speech model under Models.',
    '此空间没有可用的音色：请在工作室所在机器上安装 espeak-ng，或在“模型”中添加语音模型。',
  ],
  noVoice: ['There is no voice {{voice}} in this space.', '此空间没有音色 {{voice}}。'],
  noEspeak: [
    'The embedded voice needs espeak-ng on the studio’s machine (Debian: apt-get install espeak-ng).',
    '内置语音需要在工作室所在机器上安装 espeak-ng（Debian：apt-get install espeak-ng）。',
  ],
  noTranscriber: [
    'Transcription needs a transcription model in this space (Models: add one of kind “transcription”, e.g. whisper-1).',
    '语音识别需要此空间中的语音识别模型（在“模型”中添加类型为“语音识别”的模型，例如 whisper-1）。',
  ],
  tooLong: [
    'Speech is made of {{max}} characters at most; this text has {{length}}.',
    '语音合成最多 {{max}} 个字符；此文本有 {{length}} 个。',
  ],
  tooBig: ['An audio file is {{max}} MB at most.', '音频文件最大 {{max}} MB。'],
  noFile: [
    'Send the audio as multipart/form-data, in a field named “file”.',
    '请以 multipart/form-data 发送音频，字段名为“file”。',
  ],
  failed: ['The voice could not speak: {{detail}}', '语音合成失败：{{detail}}'],
  transcribeFailed: ['The audio could not be transcribed: {{detail}}', '语音识别失败：{{detail}}'],
  noClone: [
    'No speech provider of this studio clones voices (none is built in): install one that does.',
    '此工作室没有支持声音复刻的语音提供方（未内置）：请安装一个支持的扩展。',
  ],
  noRooms: [
    'Voice rooms need a room provider (an RTC service), and none is installed: use the chat, or install one.',
    '语音房间需要房间提供方（RTC 服务），当前未安装：请使用对话，或安装一个。',
  ],
  noVoiceprint: [
    'Voiceprints and speaker identification need a speech provider that has them; none is installed.',
    '声纹与说话人识别需要支持它们的语音提供方；当前未安装。',
  ],
});
