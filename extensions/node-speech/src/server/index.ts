// Speech nodes (server half): text to speech and speech to text, on the space's voices and transcription model.
import { defineExtension, OutboundHttpService } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { AudioService } from '@tessera/ext-audio/shared';
import { FilesService } from '@tessera/ext-files/shared';
import { speechNodes } from './nodes.ts';

export default defineExtension({
  id: 'node-speech',
  register(ctx) {
    const nodes = speechNodes({
      audio: () => ctx.service(AudioService),
      files: () => ctx.service(FilesService),
      outbound: () => ctx.service(OutboundHttpService),
    });
    for (const type of nodes) ctx.register(NodeTypes, type);
  },
});
