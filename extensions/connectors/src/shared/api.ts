// Connectors (spec 001, "Connectors"): custom connectors their developers keep, connectors installed in an enterprise
// or a space (an enterprise's installed connectors bound to its spaces), and the review of what was published to a
// custom connector. One contract for the server and the page; the open API's /v1/connectors/{id}/... take the same.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Name = z.record(z.string(), z.string());
/** A publication's review by the connector: 1 in review, 2 approved (live there), 3 rejected, 4 unpublished. */
export const AuditStatus = { InReview: 1, Approved: 2, Rejected: 3, Unpublished: 4 } as const;

const CustomConnectorFields = {
  name: z.string().trim().min(1, 'Give the connector a name.').max(100),
  description: z.string().trim().max(1000),
  icon_uri: z.string().max(500),
  /** The connector's own page (shown to those who publish to it). */
  homepage_url: z.string().trim().url('The homepage is a URL (https://...).').max(500).or(z.literal('')),
  /** The resource kinds it takes ('bot', 'project'). */
  kinds: z
    .array(z.enum(['bot', 'project']))
    .min(1)
    .max(2),
};

const CustomConnectorView = z.object({
  connector_id: z.string(),
  ...CustomConnectorFields,
  /** The enterprise it belongs to ('' for the developer's own). */
  enterprise_id: z.string(),
  owner_id: z.string(),
  /** Where it is installed (spaces and enterprises). */
  install_count: z.number(),
  /** Publications waiting for the connector's review. */
  in_review_count: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type CustomConnectorView = z.output<typeof CustomConnectorView>;

export const CreateConnector = defineEndpoint({
  method: 'POST',
  path: '/api/connector/create',
  summary: 'Make a custom connector (a channel of your own that bots and projects are published to)',
  body: z.object({
    ...CustomConnectorFields,
    description: CustomConnectorFields.description.default(''),
    icon_uri: CustomConnectorFields.icon_uri.default(''),
    homepage_url: CustomConnectorFields.homepage_url.default(''),
    kinds: CustomConnectorFields.kinds.default(['bot']),
    /** An enterprise whose admins keep it with you (you must be one of them). */
    enterprise_id: z.string().max(32).default(''),
  }),
  response: z.object({ connector: CustomConnectorView }),
});
export const UpdateConnector = defineEndpoint({
  method: 'POST',
  path: '/api/connector/update',
  summary: 'Change a custom connector',
  body: z.object({ connector_id: Id, ...z.object(CustomConnectorFields).partial().shape }),
  response: z.object({ connector: CustomConnectorView }),
});
export const DeleteConnector = defineEndpoint({
  method: 'POST',
  path: '/api/connector/delete',
  summary: 'Delete a custom connector (uninstalled everywhere; what was published to it stops there)',
  body: z.object({ connector_id: Id }),
  response: z.object({}),
});
export const ListConnectors = defineEndpoint({
  method: 'POST',
  path: '/api/connector/list',
  summary: "The custom connectors you keep (yours and your enterprises')",
  body: z.object({
    page_token: z.string().max(32).default(''),
    page_size: z.number().int().min(1).max(100).default(50),
    account_id: z.string().max(32).optional(),
  }),
  response: z.object({
    connectors: z.array(CustomConnectorView),
    next_page_token: z.string(),
    has_more: z.boolean(),
  }),
});

/** A connector as a space or enterprise sees it: built in, or custom and installed. */
const ConnectorEntry = z.object({
  connector_id: z.string(),
  name: Name,
  description: Name,
  kinds: z.array(z.string()),
  /** builtin, or custom. */
  type: z.enum(['builtin', 'custom']),
  icon_uri: z.string(),
  /** Installed in the space (or the enterprise), when asked of one; built-in connectors always are. */
  is_installed: z.boolean(),
  /** How it came to the space: builtin, space (installed there), enterprise (bound from its enterprise). */
  source: z.enum(['builtin', 'space', 'enterprise', '']),
  /** Custom connectors where the space's enterprise does not allow them: installing is refused. */
  blocked: z.boolean(),
});
export type ConnectorEntry = z.output<typeof ConnectorEntry>;

export const ConnectorCatalog = defineEndpoint({
  method: 'GET',
  path: '/api/connector/connector_manage/list',
  summary: 'Connectors you can install: built in, and the custom connectors you keep (with their state in a space)',
  query: z.object({
    space_id: z.string().max(32).optional(),
    /** Comma-joined: builtin, custom. */
    categorys: z.string().max(100).optional(),
    scene: z.enum(['bot', 'project']).optional(),
    is_installed_to_space: z.enum(['true', 'false']).optional(),
    search_word: z.string().max(100).optional(),
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ connectors: z.array(ConnectorEntry), total: z.number() }),
});

const Scope = {
  /** Install in a space (its admins) ... */
  workspace_id: z.string().max(32).optional(),
  /** ... or in an enterprise (its admins), whose spaces it is then bound to. */
  enterprise_id: z.string().max(32).optional(),
};
/** The body of the open API's install and uninstall (the connector in the path). */
export const InstallScope = z.object(Scope);
export const InstallConnector = defineEndpoint({
  method: 'POST',
  path: '/api/connector/install',
  summary: 'Install a connector in a space or an enterprise (also POST /v1/connectors/{connector_id}/install)',
  body: z.object({ connector_id: Id, ...Scope }),
  response: z.object({ connector: ConnectorEntry }),
});
export const UninstallConnector = defineEndpoint({
  method: 'POST',
  path: '/api/connector/uninstall',
  summary: 'Uninstall a connector from a space or an enterprise (also POST /v1/connectors/{connector_id}/uninstall)',
  body: z.object({ connector_id: Id, ...Scope }),
  response: z.object({}),
});

const Configs = z.record(z.string().min(1).max(64), z.string().max(2000));
/** The open API's bodies of the settings calls (the connector in the path). */
export const EnterpriseConfigsBody = z.object({ enterprise_id: Id, configs: Configs });
export const UserConfigsBody = z.object({ configs: Configs, user_id: z.string().max(32).optional() });
export const SetEnterpriseConfigs = defineEndpoint({
  method: 'PUT',
  path: '/api/connector/enterprise_configs',
  summary:
    "An installed connector's settings for an enterprise (also PUT /v1/connectors/{connector_id}/enterprise_configs)",
  body: EnterpriseConfigsBody.extend({ connector_id: Id }),
  response: z.object({ configs: Configs }),
});
export const SetUserConfigs = defineEndpoint({
  method: 'POST',
  path: '/api/connector/user_configs',
  summary: "A connector's settings for you (also POST /v1/connectors/{connector_id}/user_configs)",
  body: UserConfigsBody.extend({ connector_id: Id }),
  response: z.object({ configs: Configs }),
});

export const BindSpace = defineEndpoint({
  method: 'POST',
  path: '/api/connector/bind_space',
  summary: "Make an enterprise's installed connectors usable in one of its spaces, or all (or take them away)",
  body: z.object({
    enterprise_id: Id,
    connector_id_list: z.array(Id).min(1).max(50),
    space_id: z.string().max(32).default(''),
    uninstall: z.boolean().default(false),
    operate_all_space: z.boolean().default(false),
  }),
  response: z.object({ space_ids: z.array(z.string()) }),
});
export const SpaceConnectorList = defineEndpoint({
  method: 'POST',
  path: '/api/connector/space_connector/list',
  summary: 'The connectors a space publishes to: built in, installed there, bound from its enterprise',
  body: z.object({ space_id: Id }),
  response: z.object({ connectors: z.array(ConnectorEntry) }),
});
export const SpaceConnectorStatus = defineEndpoint({
  method: 'GET',
  path: '/api/connector/space_connector/status',
  summary: 'Whether a connector is usable in a space, and why not',
  query: z.object({ space_id: Id, connector_id: Id }),
  response: z.object({ is_installed: z.boolean(), source: z.string(), blocked: z.boolean(), reason: z.string() }),
});

const EnterpriseInstall = z.object({
  connector: ConnectorEntry,
  /** The spaces it is bound to. */
  space_ids: z.array(z.string()),
  /** Its settings for the enterprise, secrets masked. */
  configs: Configs,
  installed_at: z.number(),
});
export const EnterpriseConnectorList = defineEndpoint({
  method: 'GET',
  path: '/api/connector/enterprise_connector/list',
  summary: "An enterprise's installed connectors and the spaces they are bound to",
  query: z.object({ enterprise_id: Id }),
  response: z.object({ connectors: z.array(EnterpriseInstall), can_install_custom_connector: z.boolean() }),
});
export const EnterpriseConnectorManage = defineEndpoint({
  method: 'POST',
  path: '/api/connector/enterprise_connector/manage',
  summary: 'Install or uninstall connectors in an enterprise',
  body: z.object({
    enterprise_id: Id,
    connector_id_list: z.array(Id).min(1).max(50),
    action: z.enum(['install', 'uninstall']),
  }),
  response: z.object({}),
});
export const EnterpriseConnectorConfig = defineEndpoint({
  method: 'GET',
  path: '/api/connector/enterprise/get_config',
  summary: 'Whether the enterprise allows custom connectors',
  query: z.object({ enterprise_id: Id }),
  response: z.object({ can_install_custom_connector: z.boolean() }),
});
export const UpdateEnterpriseConnectorConfig = defineEndpoint({
  method: 'POST',
  path: '/api/connector/enterprise/update_config',
  summary: 'Allow or forbid custom connectors in the enterprise (its spaces lose those installed when forbidden)',
  body: z.object({ enterprise_id: Id, can_install_custom_connector: z.boolean() }),
  response: z.object({ can_install_custom_connector: z.boolean() }),
});

const PublicationView = z.object({
  connector_id: z.string(),
  /** bot or project */
  kind: z.string(),
  bot_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  version: z.string(),
  audit_status: z.number(),
  reason: z.string(),
  share_link: z.string(),
  published_by: z.string(),
  updated_at: z.number(),
});
export type PublicationView = z.output<typeof PublicationView>;
export const ListPublications = defineEndpoint({
  method: 'POST',
  path: '/api/connector/publication/list',
  summary: "What was published to a custom connector you keep, with each review's state",
  body: z.object({ connector_id: Id, audit_status: z.number().int().min(0).max(4).default(0) }),
  response: z.object({ publications: z.array(PublicationView) }),
});
export const UpdateConnectorBot = defineEndpoint({
  method: 'POST',
  path: '/open_api/v1/connector/update_connector_bot',
  summary: "The connector's review of a bot published to it: approved (with its link there) or rejected (with why)",
  body: z.object({
    connector_id: Id,
    bot_id: Id,
    audit_status: z.union([z.literal(2), z.literal(3), z.literal(4)]),
    reason: z.string().max(1000).default(''),
    share_link: z.string().url().max(1000).or(z.literal('')).default(''),
  }),
  response: z.object({ publication: PublicationView }),
});
export const ListSpacePublications = defineEndpoint({
  method: 'POST',
  path: '/api/connector/publication/space_list',
  summary: "The space's bots published to custom connectors, with each connector's review",
  body: z.object({ space_id: Id }),
  response: z.object({ publications: z.array(PublicationView) }),
});
export const ManagedEnterprises = defineEndpoint({
  method: 'POST',
  path: '/api/connector/enterprise/managed',
  summary: 'The enterprises whose connectors you manage (you are a super admin or admin); none without enterprises',
  body: z.object({}),
  response: z.object({ enterprises: z.array(z.object({ enterprise_id: z.string(), name: z.string() })) }),
});
