// The agent workspace's refusals and the reasons a task ends, in the studio's languages (keys `agent-workspace.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('agent-workspace', {
  noTask: ['There is no task {{id}}.', '不存在任务 {{id}}。'],
  noShare: ['There is no replay {{id}}.', '不存在回放 {{id}}。'],
  badSecret: [
    'This replay link is not valid (its secret is wrong, or the link was revoked).',
    '回放链接无效（密钥错误或链接已撤销）。',
  ],
  notEnded: ['Only an ended task can be shared as a replay.', '只有已结束的任务才能分享回放。'],
  noExpert: ['There is no expert {{id}}.', '不存在专家 {{id}}。'],
  noExample: ['There is no example {{id}}.', '不存在示例 {{id}}。'],
  noCategory: ['There is no example category {{id}}.', '不存在示例分类 {{id}}。'],
  noScheduled: ['There is no scheduled task {{id}}.', '不存在定时任务 {{id}}。'],
  noFile: ['The task has no file {{id}}.', '该任务没有文件 {{id}}。'],
  cannot: ['A {{status}} task cannot be {{operation}}.', '处于 {{status}} 状态的任务不能执行 {{operation}}。'],
  planLocked: [
    'The plan can be changed while it waits for you, while the task is paused or while it asks you something.',
    '只有在计划等待确认、任务暂停或等待回答时才能修改计划。',
  ],
  badTools: ['The tools of the task are not right: {{detail}}', '任务的工具设置有误：{{detail}}'],
  unknownTool: [
    'The studio has no tool kind "{{key}}" (its extension is off or not installed).',
    '工作室没有“{{key}}”类工具（其扩展未启用或未安装）。',
  ],
  noFiles: ['The file {{id}} is not one of this space’s files.', '文件 {{id}} 不属于该空间。'],
  filesOff: [
    'Files are off in this studio: a task cannot be given files.',
    '本工作室未启用文件功能，任务不能附带文件。',
  ],
  dailyQuota: [
    'You have made {{limit}} tasks today, the most a day: try again tomorrow.',
    '今天已创建 {{limit}} 个任务，已达每日上限，请明天再试。',
  ],
  runningQuota: [
    '{{limit}} of your tasks are at work, the most at once: wait for one to end, or pause or stop one.',
    '你有 {{limit}} 个任务正在执行，已达同时执行的上限：请等待其中一个结束，或暂停、停止一个。',
  ],
  unknownExpert: [
    'The step "{{step}}" names an expert the task does not have.',
    '步骤“{{step}}”指定的专家不在任务中。',
  ],
  // Why a task ended, as the task page shows it.
  endFinished: ['The task is done.', '任务已完成。'],
  endStopped: ['Stopped by {{who}}.', '已被 {{who}} 停止。'],
  endStoppedPlain: ['Stopped.', '已停止。'],
  endSteps: [
    'The task reached its limit of {{max}} steps before the plan was done. Raise the limit and send a follow-up to go on.',
    '任务在计划完成前达到了 {{max}} 步的上限。提高上限后发送后续消息即可继续。',
  ],
  endTokens: [
    'The task reached its limit of {{max}} tokens before the plan was done.',
    '任务在计划完成前达到了 {{max}} 个 Token 的上限。',
  ],
  endTime: [
    'The task reached its limit of {{max}} minutes of work before the plan was done.',
    '任务在计划完成前达到了 {{max}} 分钟工作时间的上限。',
  ],
  endFailed: ['The task failed: {{detail}}', '任务失败：{{detail}}'],
});
export type EndText = { key: Parameters<typeof texts.text>[0]; params: Record<string, string> };
