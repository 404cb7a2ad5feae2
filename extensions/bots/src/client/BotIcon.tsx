import { Avatar } from '@arco-design/web-react';
import { IconRobot } from '@arco-design/web-react/icon';

const COLORS = ['#165DFF', '#0FC6C2', '#722ED1', '#F77234', '#00B42A', '#F5319D'];

/** A bot's icon: its image, else a robot on a colour picked from its name. */
export function BotIcon({ bot, size = 32 }: { bot: { icon_uri?: string; name: string }; size?: number }) {
  if (bot.icon_uri && /^(https?:|data:image\/)/.test(bot.icon_uri)) return <Avatar size={size} shape="square"><img src={bot.icon_uri} alt="" /></Avatar>;
  let h = 0;
  for (const c of bot.name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (
    <Avatar size={size} shape="square" style={{ backgroundColor: COLORS[h % COLORS.length] }}>
      <IconRobot />
    </Avatar>
  );
}
