// @tessera/ext-workflow/client: the node-type client API (from @tessera/workflow-sdk/client) and the
// inputs the editor's forms share (TemplateInput, ValueInput, FieldsEditor ...).
export * from '@tessera/workflow-sdk/client';
export { FIELD_TYPES, FieldProblem, FieldsEditor, hintForm, SYSTEM_VARIABLES, TemplateInput, useVariables, ValueInput, WorkflowSelect, type VariableRef } from './widgets.tsx';
