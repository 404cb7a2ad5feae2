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
  creator_id: string;
  /** The last published version number ('' before the first). */
  version: string;
}

/** A project's last publication (one that published something). */
export interface ProjectPublication {
  version: string;
  connectors: string[];
  /** Per connector, its settings (the Web SDK's allowed_origins ...). */
  connector_settings: Record<string, unknown>;
  /** What each resource got: only those with status 'published' are live. */
  results: { res_type: string; res_id: string; name: string; status: string; version?: string }[];
}

export interface Projects {
  /** A project not deleted, or undefined. */
  get(id: string): Promise<ProjectBrief | undefined>;
  /** The project's variables: as edited (draft), or as the last publication took them (undefined: never published). */
  variables(id: string, which: 'draft' | 'published'): Promise<ProjectVariable[] | undefined>;
  /** The last publication that published something; undefined before the first. */
  publication(id: string): Promise<ProjectPublication | undefined>;
}

export const ProjectsService = defineService<Projects>({
  id: 'projects.service',
  owner: 'projects',
  description: 'Projects and their variables.',
});
