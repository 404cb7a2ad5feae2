// The debugger's refusals in the studio's languages (keys `debugger.*`).
import { defineErrorTexts } from '@tessera/sdk/server';

export const texts = defineErrorTexts('debugger', {
  noMockSet: ['There is no mock set {{id}}.', '不存在模拟集 {{id}}。'],
  noRule: ['There is no mock rule {{id}}.', '不存在模拟规则 {{id}}。'],
  noCase: ['There is no test case {{id}}.', '不存在测试用例 {{id}}。'],
  noTask: ['There is no generation task {{id}}.', '不存在生成任务 {{id}}。'],
  notTool: [
    'Mock sets are made for a plugin API (componentType 10001 with its plugin as parentComponentID) or a workflow (10002).',
    '模拟集需针对插件 API（componentType 10001，parentComponentID 为其插件）或工作流（10002）创建。',
  ],
  otherComponent: ['The mock set {{id}} is for another API or workflow.', '模拟集 {{id}} 属于另一个 API 或工作流。'],
  notWorkflow: [
    'Test cases are kept for a workflow (componentType 10002).',
    '测试用例针对工作流保存（componentType 10002）。',
  ],
  noApi: ['The plugin {{plugin}} has no API {{id}} in this space.', '该空间中插件 {{plugin}} 没有 API {{id}}。'],
  pluginsOff: ['Plugins are off in this studio.', '本工作室未启用插件。'],
  workflowsOff: ['Workflows are off in this studio.', '本工作室未启用工作流。'],
  modelsOff: [
    'Models are off in this studio: mock data cannot be generated.',
    '本工作室未启用模型，无法生成模拟数据。',
  ],
  noModel: [
    'Choose a chat model to write the mock data (the space has no default one).',
    '请选择用于生成模拟数据的对话模型（空间没有默认模型）。',
  ],
  badJson: ['{{field}} is not valid JSON: {{detail}}', '{{field}} 不是有效的 JSON：{{detail}}'],
  filterObject: [
    'A matching rule’s request filter is a JSON object of input values (e.g. {"city": "Paris"}).',
    '匹配规则的请求过滤应是由输入值组成的 JSON 对象（例如 {"city": "Paris"}）。',
  ],
  badScene: [
    'Say where the mock set is used: trafficScene 10000 (a bot’s debug chat) or 10003 (a workflow’s test runs) with trafficCallerID (the bot or the workflow).',
    '请说明模拟集在何处使用：trafficScene 10000（智能体调试对话）或 10003（工作流试运行），并提供 trafficCallerID（智能体或工作流）。',
  ],
  caseName: ['Name the test case.', '请为测试用例命名。'],
  caseTaken: ['The workflow already has a test case named "{{name}}".', '该工作流已有名为“{{name}}”的测试用例。'],
  inputObject: [
    'A test case’s input is a JSON object of the workflow’s inputs.',
    '测试用例的输入应是由工作流输入组成的 JSON 对象。',
  ],
  noCases: [
    'The model wrote no inputs that fit the workflow’s Start fields; try again, or say what the inputs should test.',
    '模型没有写出符合工作流开始节点字段的输入；请重试，或说明输入要测试什么。',
  ],
  notRunning: ['The generation task has ended ({{status}}).', '生成任务已结束（{{status}}）。'],
});
