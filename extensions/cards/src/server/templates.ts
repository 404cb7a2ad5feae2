// The card templates built into the studio: a list of results, a table, an article and a weather report, each with
// sample data the builder previews with.
import type { CardDsl } from '../shared/index.ts';

export const BUILTIN_TEMPLATES: { template_id: string; name: Record<'en-US' | 'zh-CN', string>; dsl: CardDsl }[] = [
  {
    template_id: 'builtin-list',
    name: { 'en-US': 'List of results', 'zh-CN': '结果列表' },
    dsl: {
      version: 1,
      title: '{{title}}',
      body: [
        {
          type: 'list',
          items: '{{items}}',
          empty: 'Nothing found.',
          children: [
            { type: 'text', text: '{{item.name}}', bold: true },
            { type: 'text', text: '{{item.description}}', style: 'caption', color: 'secondary' },
            { type: 'button', label: 'Open', style: 'secondary', action: { type: 'link', url: '{{item.url}}' } },
          ],
        },
      ],
      sample: {
        title: 'Results',
        items: [
          { name: 'First result', description: 'What it is about', url: 'https://example.com/1' },
          { name: 'Second result', description: 'Another one', url: 'https://example.com/2' },
        ],
      },
    },
  },
  {
    template_id: 'builtin-table',
    name: { 'en-US': 'Table', 'zh-CN': '表格' },
    dsl: {
      version: 1,
      title: '{{title}}',
      body: [
        {
          type: 'table',
          rows: '{{rows}}',
          columns: [
            { title: 'Name', value: '{{item.name}}' },
            { title: 'Value', value: '{{item.value}}' },
          ],
        },
      ],
      sample: {
        title: 'Figures',
        rows: [
          { name: 'Visitors', value: 1200 },
          { name: 'Orders', value: 87 },
        ],
      },
    },
  },
  {
    template_id: 'builtin-article',
    name: { 'en-US': 'Article', 'zh-CN': '文章' },
    dsl: {
      version: 1,
      body: [
        { type: 'image', url: '{{image}}', alt: '{{title}}', height: 140 },
        { type: 'text', text: '{{title}}', style: 'title' },
        { type: 'text', text: '{{summary}}' },
        { type: 'divider' },
        {
          type: 'row',
          children: [
            { type: 'button', label: 'Read', style: 'primary', action: { type: 'link', url: '{{url}}' } },
            { type: 'button', label: 'More like this', action: { type: 'message', text: 'More like "{{title}}"' } },
          ],
        },
      ],
      sample: {
        title: 'A headline',
        summary: 'Two lines of what the article says.',
        image: 'https://example.com/picture.png',
        url: 'https://example.com/article',
      },
    },
  },
  {
    template_id: 'builtin-weather',
    name: { 'en-US': 'Weather', 'zh-CN': '天气' },
    dsl: {
      version: 1,
      title: '{{city}}',
      body: [
        { type: 'text', text: '{{temperature}}°  {{condition}}', style: 'title', color: 'primary' },
        {
          type: 'table',
          rows: '{{forecast}}',
          columns: [
            { title: 'Day', value: '{{item.day}}' },
            { title: 'High', value: '{{item.high}}°' },
            { title: 'Low', value: '{{item.low}}°' },
          ],
        },
      ],
      sample: {
        city: 'Oslo',
        temperature: 4,
        condition: 'Cloudy',
        forecast: [
          { day: 'Mon', high: 6, low: 1 },
          { day: 'Tue', high: 8, low: 2 },
        ],
      },
    },
  },
];
