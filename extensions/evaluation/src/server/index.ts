// Evaluation (server half): sets (sets.ts), evaluators and their kinds (evaluators.ts: LLM-as-judge, code),
// targets (targets.ts: prompt versions, published workflows), experiments (experiments.ts). The EvalTargets and
// Evaluators points let other extensions add targets (bots ...) and kinds of evaluators.
import { defineExtension } from '@tessera/sdk/server';
import { registerAnalysis } from './analysis.ts';
import { registerEvaluatorKinds, registerEvaluatorRoutes } from './evaluators.ts';
import { registerExperiments, resumeExperiments } from './experiments.ts';
import { migrations } from './migrations.ts';
import { registerSetRoutes } from './sets.ts';
import { provideEvaluatorRuns } from './runs.ts';
import { registerTargets } from './targets.ts';

export default defineExtension({
  id: 'evaluation',
  register(ctx) {
    ctx.migrations(migrations);
    registerSetRoutes(ctx);
    registerEvaluatorKinds(ctx);
    registerEvaluatorRoutes(ctx);
    provideEvaluatorRuns(ctx);
    registerTargets(ctx);
    registerExperiments(ctx);
    registerAnalysis(ctx);
  },
  async start(ctx) {
    // With several processes a running experiment may be live elsewhere: those are left alone.
    if (ctx.host.distributed) return;
    const n = await resumeExperiments(ctx);
    if (n) ctx.logger.info(`evaluation: resumed ${n} experiment(s) a previous stop left running`);
  },
});
