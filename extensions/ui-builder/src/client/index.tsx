// The UI builder (client half): the space's apps, the builder, the published app at /apps/:uiId (open to whoever the
// app's access lets in), and the built-in components on the UiComponents point (extensions add theirs there).
import { IconApps } from '@arco-design/web-react/icon';
import { defineExtension, lazyPage, lazyView } from '@tessera/sdk/client';
import { CurrentSpaceService } from '@tessera/ext-spaces/shared';
import { UiComponents, type UiComponent, type UiComponentProps } from '../shared/dsl.ts';
import { setCurrentSpace } from './space.ts';

const AppsPage = lazyPage(() => import('./AppsPage.tsx').then((m) => m.AppsPage));
const BuilderPage = lazyPage(() => import('./BuilderPage.tsx').then((m) => m.BuilderPage));
const AppPage = lazyPage(() => import('./AppPage.tsx').then((m) => m.AppPage));
type Builtins = typeof import('./builtins.tsx');
const view = (name: keyof Builtins) => lazyView<UiComponentProps>(() => import('./builtins.tsx').then((m) => m[name]));

const BUILTINS: UiComponent[] = [
  { type: 'column', label: 'c.column', container: true, props: { gap: 'number' }, View: view('ColumnView') },
  { type: 'row', label: 'c.row', container: true, props: { gap: 'number', align: 'text' }, View: view('RowView') },
  { type: 'text', label: 'c.text', props: { content: 'longtext', size: 'text' }, View: view('TextView') },
  { type: 'markdown', label: 'c.markdown', props: { content: 'longtext' }, View: view('MarkdownView') },
  { type: 'image', label: 'c.image', props: { src: 'url', alt: 'text' }, View: view('ImageView') },
  {
    type: 'input',
    label: 'c.input',
    props: { label: 'text', placeholder: 'text', kind: 'text' },
    View: view('InputView'),
  },
  { type: 'button', label: 'c.button', props: { label: 'text' }, View: view('ButtonView') },
  { type: 'form', label: 'c.form', container: true, props: { submit_label: 'text' }, View: view('FormView') },
  { type: 'list', label: 'c.list', props: { items: 'variable' }, View: view('ListView') },
  { type: 'table', label: 'c.table', props: { items: 'variable', columns: 'text' }, View: view('TableView') },
];

export default defineExtension({
  id: 'ui-builder',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    setCurrentSpace(ctx.service(CurrentSpaceService));
    for (const c of BUILTINS) ctx.register(UiComponents, c);
    ctx.route({ path: '/ui-apps', component: AppsPage, title: 'title' });
    ctx.route({ path: '/ui-apps/:uiId', component: BuilderPage, title: 'title' });
    ctx.route({ path: '/apps/:uiId', component: AppPage, title: 'app.title', public: true, layout: 'bare' });
    ctx.sidebar({
      key: 'ui-apps',
      area: 'space',
      group: 'build',
      label: 'nav',
      path: '/ui-apps',
      icon: <IconApps />,
      order: 25,
    });
  },
});
