import { hintForm as sharedHintForm } from '@tessera/ext-workflow/client';

/** Break, Continue and Set loop variable: a line on what they do. */
export const hintForm = (key: string) => sharedHintForm(`nodes-loop:hint.${key}`, `${key}-form`);
