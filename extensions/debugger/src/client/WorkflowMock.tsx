// The workflow editor's Mock data panel: which mock sets answer the plugin APIs and sub-workflows its test runs call,
// and this workflow's own mock sets (answers for bots' debug chats and other workflows' test runs that call it).
import type { EditorPanelProps } from '@tessera/workflow-sdk/client';
import { MockBindings } from './Bindings.tsx';
import { MockSets } from './MockSets.tsx';

export function WorkflowMockPanel({ spaceId, workflowId }: EditorPanelProps) {
  return (
    <div style={{ padding: 12 }} data-testid="workflow-mock-data">
      <MockBindings spaceId={spaceId} scene={10003} callerId={workflowId} />
      <MockSets spaceId={spaceId} subject={{ componentID: workflowId, componentType: 10002 }} />
    </div>
  );
}
