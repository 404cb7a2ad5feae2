// What other extensions ask of projects: a project and its variables (Coze's app variables: channel 5).
import { defineService } from '@tessera/sdk';

/** One project variable as Coze's project_memory.Variable names it (values are strings, per end user). */
export interface ProjectVariable {
  Keyword: string;
  DefaultValue: string;
  Description: string;
  /** Off: kept, but not offered to the project's resources nor to the open API. */
  Enable: boolean;
  /** End users (PUT /v1/variables) may not set it; the project's resources still may. */
  IsReadOnly: boolean;
  /** JSON schema of the value (`{"type":"string"}` unless given). */
  Schema: string;
}

export interface ProjectBrief {
  id: string;
  space_id: string;
  name: string;
  /** The last published version number ('' before the first). */
  version: string;
}

export interface Projects {
  /** A project not deleted, or undefined. */
  get(id: string): Promise<ProjectBrief | undefined>;
  /** The project's variables: as edited (draft), or as the last publication took them (undefined: never published). */
  variables(id: string, which: 'draft' | 'published'): Promise<ProjectVariable[] | undefined>;
}

export const ProjectsService = defineService<Projects>({ id: 'projects.service', owner: 'projects', description: 'Projects and their variables.' });
