// A workflow's icon and what the list answers of it: small, shared by the library page and the
// shared pages (home), which must not pull the library's code in.
import { Avatar } from '@arco-design/web-react';
import {
  IconBranch,
  IconBulb,
  IconCode,
  IconEmail,
  IconFile,
  IconMessage,
  IconPublic,
  IconRobot,
  IconSearch,
  IconStorage,
  IconThunderbolt,
  IconTool,
} from '@arco-design/web-react/icon';
import type { ComponentType, CSSProperties } from 'react';

/** A workflow as workflow_list returns it. */
export interface WorkflowListItem {
  workflow_id: string;
  space_id: string;
  name: string;
  desc: string;
  icon_uri: string;
  flow_mode: number;
  creator_id: string;
  status: number;
  publish_status: number;
  latest_version: string | null;
  published_at: string | null;
  create_time: number;
  update_time: number;
}

/** Icons a workflow can take (stored as `icon:<name>` in icon_uri; any other value is an image URL). */
export const WORKFLOW_ICONS: Record<string, { icon: ComponentType<{ style?: CSSProperties }>; color: string }> = {
  branch: { icon: IconBranch, color: '#165DFF' },
  bulb: { icon: IconBulb, color: '#722ED1' },
  robot: { icon: IconRobot, color: '#0FC6C2' },
  message: { icon: IconMessage, color: '#00B42A' },
  file: { icon: IconFile, color: '#F77234' },
  search: { icon: IconSearch, color: '#3491FA' },
  code: { icon: IconCode, color: '#4E5969' },
  tool: { icon: IconTool, color: '#F5319D' },
  email: { icon: IconEmail, color: '#FF7D00' },
  public: { icon: IconPublic, color: '#14C9C9' },
  storage: { icon: IconStorage, color: '#9FDB1D' },
  thunderbolt: { icon: IconThunderbolt, color: '#F7BA1E' },
};

export function WorkflowIcon({
  item,
  size = 32,
}: {
  item: Pick<WorkflowListItem, 'icon_uri' | 'name'>;
  size?: number;
}) {
  const preset = item.icon_uri.startsWith('icon:') ? WORKFLOW_ICONS[item.icon_uri.slice('icon:'.length)] : undefined;
  if (item.icon_uri && !preset)
    return (
      <Avatar size={size} shape="square">
        <img src={item.icon_uri} alt="" />
      </Avatar>
    );
  const Icon = preset?.icon;
  return (
    <Avatar size={size} shape="square" style={{ backgroundColor: preset?.color ?? '#165DFF', fontSize: size * 0.5 }}>
      {Icon ? <Icon style={{ color: '#fff' }} /> : item.name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
