// The workflow editor's Mock data panel: which mock sets answer the plugin APIs its test runs call.
import type { EditorPanelProps } from '@tessera/workflow-sdk/client';
import { MockBindings } from './Bindings.tsx';

export function WorkflowMockPanel({ spaceId, workflowId }: EditorPanelProps) {
  return (
    <div style={{ padding: 12 }} data-testid="workflow-mock-data">
      <MockBindings spaceId={spaceId} scene={10003} callerId={workflowId} />
    </div>
  );
}
