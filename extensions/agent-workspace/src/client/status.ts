// How a task's state is shown.
export const STATUS_COLOR: Record<string, string> = {
  planning: 'arcoblue',
  waiting_plan: 'orange',
  running: 'arcoblue',
  paused: 'gray',
  waiting_user: 'orange',
  finished: 'green',
  stopped: 'gray',
  failed: 'red',
};
export const isEnded = (s: string) => s === 'finished' || s === 'failed' || s === 'stopped';
