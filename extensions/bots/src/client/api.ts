// The bot as pages hold it (the shapes live with the routes' contracts, in shared/).
export type { BotConfig, BotInfo, BotListItem, Capabilities } from '../shared/bot-types.ts';
