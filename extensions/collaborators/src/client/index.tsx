// Collaborators (client half): the Collaborators panel of the workflow editor (its EditorPanels point), and a
// Collaborators button in the bot editor's and a project's header (ResourceActions).
import { defineExtension, lazyView, ResourceActions, type ResourceActionProps } from '@tessera/sdk/client';
import { EditorPanels, type EditorPanelProps } from '@tessera/ext-workflow/client';

const WorkflowPanel = lazyView<EditorPanelProps>(() =>
  import('./CollaboratorsPanel.tsx').then(({ CollaboratorsPanel }) => {
    const Panel = ({ spaceId, workflowId }: EditorPanelProps) => (
      <CollaboratorsPanel spaceId={spaceId} kind="workflow" resourceId={workflowId} />
    );
    return Panel;
  }),
);
const CollaboratorsButton = lazyView<ResourceActionProps>(
  () => import('./CollaboratorsPanel.tsx').then((m) => m.CollaboratorsButton),
  { fallback: null },
);

export default defineExtension({
  id: 'collaborators',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(EditorPanels, {
      key: 'collaborators',
      label: 'collaborators:button',
      order: 30,
      Component: WorkflowPanel,
    });
    ctx.register(ResourceActions, {
      key: 'collaborators',
      kinds: ['bot', 'project'],
      order: 20,
      component: CollaboratorsButton,
    });
  },
});
