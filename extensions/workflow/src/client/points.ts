// @tessera/ext-workflow/client: the node-type client API (from @tessera/workflow-sdk/client) and the
// inputs the editor's forms share (TemplateInput, ValueInput, FieldsEditor ...).
export * from '@tessera/workflow-sdk/client';
import { lazyView } from '@tessera/sdk/client';
import type { ComponentProps } from 'react';

type Widgets = typeof import('./widgets.tsx');
export {
  FIELD_TYPES,
  FieldProblem,
  hintForm,
  SYSTEM_VARIABLES,
  useTypeLabel,
  useVariables,
  type VariableRef,
} from './widgets-light.tsx';
// The inputs load with the first form that draws one (a node type's form is itself lazy: see lazyView).
export const TemplateInput = lazyView<ComponentProps<Widgets['TemplateInput']>>(() =>
  import('./widgets.tsx').then((m) => m.TemplateInput),
);
export const ValueInput = lazyView<ComponentProps<Widgets['ValueInput']>>(() =>
  import('./widgets.tsx').then((m) => m.ValueInput),
);
export const FieldsEditor = lazyView<ComponentProps<Widgets['FieldsEditor']>>(() =>
  import('./widgets.tsx').then((m) => m.FieldsEditor),
);
export const WorkflowSelect = lazyView<ComponentProps<Widgets['WorkflowSelect']>>(() =>
  import('./widgets.tsx').then((m) => m.WorkflowSelect),
);
