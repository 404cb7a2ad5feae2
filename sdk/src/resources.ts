// Resources as they leave and enter spaces (files, copies, templates, marketplace products): both halves read them.

/** One resource as it leaves its space (a file, a copy, a template, a marketplace product). */
export interface ResourcePackage {
  kind: string;
  /** Its id where it came from (what other packages of the same bundle name). */
  id: string;
  name: string;
  description: string;
  icon_uri?: string;
  /** The kind's own content (a workflow's canvas, a bot's configuration). */
  data: unknown;
  /** What it needs of a studio: node type codes, skills ... by the kind's own names (for the list of what is missing). */
  requires?: Record<string, string[]>;
}

/** Resources exported together: the root first, then what it brings along. */
export interface ResourceBundle {
  format: 'tessera.resources';
  version: 1;
  exported_at: string;
  /** The extensions (id and version) of the kinds in it, as the exporting studio ran them. */
  extensions: { id: string; version: string }[];
  resources: ResourcePackage[];
}
