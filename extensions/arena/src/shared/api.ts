// The model arena (spec 002 §7.14, /models/...): blind battles between two of a space's models on one question,
// votes, a question bank, and the leaderboard. One contract for the server and the page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Space = { space_id: Id };
const Pk = { pk_id: Id };
const Label = z.record(z.string(), z.string());

/** Who won: side a, side b, a tie, or both bad (both count as a tie in the ratings). */
export const Vote = z.enum(['a', 'b', 'tie', 'both_bad']);
export const CATEGORIES = ['general', 'coding', 'writing', 'reasoning', 'knowledge'] as const;
/** The votes a model needs before its rank is more than provisional. */
export const MIN_VOTES = 10;
const Category = z.enum(CATEGORIES);
/** space: the space's contestants and votes; public: the platform's models, with the votes of every space. */
export const Pool = z.enum(['space', 'public']).default('space');
/** model: chat models fight; bot: the space's bots published to the API. */
export const Kind = z.enum(['model', 'bot']).default('model');
/** The questions a battle may have (the first and the follow-ups) before its vote. */
export const MAX_TURNS = 10;
const Arena = { pool: Pool, kind: Kind };

export const GetConf = defineEndpoint({
  method: 'GET',
  path: '/api/models/get_conf',
  summary: "The arena's categories, feedback tags and the votes a model needs before its rank is more than provisional",
  query: z.object({}),
  response: z.object({
    categories: z.array(z.object({ key: z.string(), label: Label })),
    tags: z.array(z.object({ key: z.string(), label: Label })),
    min_votes: z.number(),
  }),
});

const Contestant = z.object({ id: z.string(), name: z.string(), kind: z.string(), battles: z.number() });
export const GetModelList = defineEndpoint({
  method: 'POST',
  path: '/api/models/get_model_list',
  summary: "The chat models that take part in the space's arena (or the public one), with how often each fought",
  body: z.object({ ...Space, pool: Pool }),
  response: z.object({ models: z.array(Contestant) }),
});
export const ListArenaBot = defineEndpoint({
  method: 'POST',
  path: '/api/models/list_arena_bot',
  summary: "Everything that fights in the space's arena: its chat models and its bots published to the API",
  body: z.object({ ...Space, pool: Pool }),
  response: z.object({ bots: z.array(Contestant) }),
});
export const RandBotId = defineEndpoint({
  method: 'POST',
  path: '/api/models/rand_bot_id',
  summary: 'One contestant of the arena at random',
  body: z.object({ ...Space, ...Arena }),
  response: z.object({ id: z.string() }),
});

const Question = z.object({ id: z.string(), text: z.string(), category: z.string(), builtin: z.boolean() });
export type QuestionView = z.output<typeof Question>;
export const ListBank = defineEndpoint({
  method: 'POST',
  path: '/api/models/list_bank',
  summary: "The question bank: the studio's questions and the space's own",
  body: z.object({ ...Space, category: Category.optional() }),
  response: z.object({ questions: z.array(Question) }),
});
export const AddQuestion = defineEndpoint({
  method: 'POST',
  path: '/api/models/bank/add',
  summary: "Add a question to the space's bank",
  body: z.object({
    ...Space,
    text: z.string().trim().min(1, 'Write the question.').max(4000),
    category: Category.default('general'),
  }),
  response: z.object({ question: Question }),
});
export const DeleteQuestion = defineEndpoint({
  method: 'POST',
  path: '/api/models/bank/delete',
  summary: "Take a question out of the space's bank",
  body: z.object({ ...Space, question_id: Id }),
  response: z.object({}),
});
export const RandQuestion = defineEndpoint({
  method: 'POST',
  path: '/api/models/rand_question',
  summary: 'A question of the bank at random (of a category)',
  body: z.object({ ...Space, category: Category.optional() }),
  response: z.object({ question: Question }),
});

export const CreatePk = defineEndpoint({
  method: 'POST',
  path: '/api/models/create_pk',
  summary:
    'Start a blind battle: two models (or bots) drawn to answer the question (who they are is told after the vote)',
  body: z.object({
    ...Space,
    ...Arena,
    question: z.string().trim().min(1, 'Ask a question.').max(8000),
    category: Category.default('general'),
  }),
  response: z.object({ pk_id: z.string(), category: z.string(), pool: z.string(), kind: z.string() }),
});
export const BreakMessage = defineEndpoint({
  method: 'POST',
  path: '/api/models/break_message',
  summary: 'Stop the two answers of a battle (what was written stays)',
  body: z.object(Pk),
  response: z.object({}),
});

const Side = z.object({ id: z.string(), name: z.string() });
const Turn = z.object({ question: z.string(), answer_a: z.string(), answer_b: z.string() });
const BattleView = z.object({
  pk_id: z.string(),
  pool: z.string(),
  kind: z.string(),
  question: z.string(),
  category: z.string(),
  answer_a: z.string(),
  answer_b: z.string(),
  /** Every question of the battle with both answers, the first included. */
  turns: z.array(Turn),
  /** created, answered, failed, voted */
  status: z.string(),
  vote: z.string(),
  tags: z.array(z.string()),
  feedback_text: z.string(),
  /** Who a and b are: told once voted. */
  model_a: Side.nullable(),
  model_b: Side.nullable(),
  created_at: z.number(),
});
export type BattleView = z.output<typeof BattleView>;
export const VotePk = defineEndpoint({
  method: 'POST',
  path: '/api/models/vote',
  summary:
    'Vote on a battle once both answered (a, b, tie, both_bad), with feedback tags and text: the models are told',
  body: z.object({
    ...Pk,
    vote: Vote,
    tags: z.array(z.string().max(32)).max(10).default([]),
    text: z.string().max(2000).default(''),
  }),
  response: z.object({ battle: BattleView }),
});
export const FeedbackTag = defineEndpoint({
  method: 'GET',
  path: '/api/models/feedback_tag',
  summary: 'The feedback tags a vote may carry',
  query: z.object({}),
  response: z.object({ tags: z.array(z.object({ key: z.string(), label: Label })) }),
});
export const FeedbackText = defineEndpoint({
  method: 'POST',
  path: '/api/models/feedback_text',
  summary: 'Add (or change) the words said about a battle you voted on',
  body: z.object({ ...Pk, text: z.string().max(2000) }),
  response: z.object({ battle: BattleView }),
});
export const GetPk = defineEndpoint({
  method: 'POST',
  path: '/api/models/get_pk',
  summary: 'A battle of yours (the models named once voted)',
  body: z.object(Pk),
  response: z.object({ battle: BattleView }),
});

const Row = z.object({
  rank: z.number(),
  model_id: z.string(),
  name: z.string(),
  rating: z.number(),
  ci_low: z.number(),
  ci_high: z.number(),
  battles: z.number(),
  wins: z.number(),
  losses: z.number(),
  ties: z.number(),
  /** Fewer votes than get_conf's min_votes: the rank may move a lot. */
  provisional: z.boolean(),
});
export type LeaderboardRow = z.output<typeof Row>;
export const GetLeaderboard = defineEndpoint({
  method: 'POST',
  path: '/api/models/leaderboard/get',
  summary: 'Ratings by votes (Bradley–Terry on the Elo scale) with 95% intervals, of all votes or one category',
  body: z.object({ ...Space, ...Arena, category: Category.optional() }),
  response: z.object({ rows: z.array(Row), votes: z.number() }),
});
export const GetLeaderboardV2 = defineEndpoint({
  method: 'POST',
  path: '/api/models/leaderboard/get_v2',
  summary: 'The leaderboard of every category at once',
  body: z.object({ ...Space, ...Arena }),
  response: z.object({
    categories: z.array(z.object({ category: z.string(), rows: z.array(Row), votes: z.number() })),
  }),
});
