import { Avatar } from '@arco-design/web-react';
import { IconRobot } from '@arco-design/web-react/icon';

/** The built-in icons: a robot on one of these colours (`icon_uri` `color:<hex>`); an image URL works too. */
export const BOT_COLORS = ['#165DFF', '#0FC6C2', '#722ED1', '#F77234', '#00B42A', '#F5319D', '#86909C'];

/** A bot's icon: its image, its chosen colour, else a colour picked from its name. */
export function BotIcon({ bot, size = 32 }: { bot: { icon_uri?: string; name: string }; size?: number }) {
  if (bot.icon_uri && /^(https?:|data:image\/)/.test(bot.icon_uri))
    return (
      <Avatar size={size} shape="square">
        <img src={bot.icon_uri} alt="" />
      </Avatar>
    );
  let color = bot.icon_uri?.startsWith('color:') ? bot.icon_uri.slice(6) : '';
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) {
    let h = 0;
    for (const c of bot.name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    color = BOT_COLORS[h % BOT_COLORS.length];
  }
  return (
    <Avatar size={size} shape="square" style={{ backgroundColor: color }}>
      <IconRobot />
    </Avatar>
  );
}

/** Choose one of the built-in icons. */
export function IconPicker({
  name,
  value,
  onChange,
}: {
  name: string;
  value: string;
  onChange(iconUri: string): void;
}) {
  return (
    <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }} data-testid="bot-icon-picker">
      {BOT_COLORS.map((c) => {
        const uri = `color:${c}`;
        return (
          <button
            key={c}
            type="button"
            aria-pressed={value === uri}
            aria-label={c}
            onClick={() => onChange(uri)}
            style={{
              padding: 2,
              border: `2px solid ${value === uri ? 'rgb(var(--primary-6))' : 'transparent'}`,
              borderRadius: 6,
              background: 'none',
              cursor: 'pointer',
            }}
          >
            <BotIcon bot={{ name, icon_uri: uri }} size={28} />
          </button>
        );
      })}
    </div>
  );
}
