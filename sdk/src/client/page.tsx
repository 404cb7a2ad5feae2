// The page frame every page shares (docs/conventions.md, "Design language"): one page header (one title size, an
// intro, actions on the right, one kind of back link) and one empty state. The host's stylesheet gives them their
// spacing from the design tokens (--tessera-space-*, --tessera-title-*).
import { Empty, Typography } from '@arco-design/web-react';
import type { DrawerProps } from '@arco-design/web-react';
import { IconLeft } from '@arco-design/web-react/icon';
import type { ComponentType, MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { useStudio } from './context.tsx';
import { lazyView } from './lazy.tsx';

export interface BackLinkProps {
  to: string;
  /** What it goes back to, for screen readers and the tooltip ("Back to bots"). */
  label: string;
  /** Runs first (an editor saves what is pending); call preventDefault to navigate yourself. */
  onClick?(e: MouseEvent<HTMLAnchorElement>): void;
  testId?: string;
}

/** The one back link: an arrow before the page's title. */
export function BackLink({ to, label, onClick, testId }: BackLinkProps) {
  return (
    <Link to={to} aria-label={label} title={label} className="tessera-back" onClick={onClick} data-testid={testId}>
      <IconLeft />
    </Link>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  /** One line on what the page is for, under the title. */
  intro?: ReactNode;
  /** Buttons on the right (the page's main action last, primary). */
  actions?: ReactNode;
  /** A detail page's way back to its list. */
  back?: BackLinkProps;
  /** Small things next to the title (a kind, a state). */
  extra?: ReactNode;
  titleTestId?: string;
}

/** A page's header: the same title size on every page, its intro, its actions, its back link. */
export function PageHeader({ title, intro, actions, back, extra, titleTestId }: PageHeaderProps) {
  return (
    <header className="tessera-page-header" data-testid="page-header">
      {back && <BackLink {...back} />}
      <div className="tessera-page-header-text">
        <div className="tessera-page-header-title">
          <Typography.Title heading={4} style={{ margin: 0 }} data-testid={titleTestId}>
            {title}
          </Typography.Title>
          {extra}
        </div>
        {intro && (
          <Typography.Text type="secondary" className="tessera-page-header-intro">
            {intro}
          </Typography.Text>
        )}
      </div>
      {actions && <div className="tessera-page-header-actions">{actions}</div>}
    </header>
  );
}

/** Nothing here yet: what would be here and how to make the first one (a button or a link). */
export function EmptyState({
  description,
  action,
  testId,
}: {
  description: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="tessera-empty" data-testid={testId}>
      <Empty description={description} />
      {action && <div className="tessera-empty-action">{action}</div>}
    </div>
  );
}

/** The side panels' widths: a list or a form (small), a detail (medium), a wide result (large). */
export const SIDE_PANEL_WIDTHS = { small: 480, medium: 640, large: 'min(1100px, 96vw)' } as const;

// Arco's Drawer loads with the first panel opened.
const ArcoDrawer = lazyView(
  () => import('./arco-drawer.ts').then((m) => m.Drawer as ComponentType<DrawerProps & { children?: ReactNode }>),
  { fallback: null },
);

/** A panel from the right over the page (versions, a trace, a run's details): one of three widths, the whole width on a phone. */
export function SidePanel({
  size = 'medium',
  ...props
}: Omit<DrawerProps, 'width'> & { size?: keyof typeof SIDE_PANEL_WIDTHS; children?: ReactNode }) {
  const { mobile } = useStudio();
  return <ArcoDrawer footer={null} {...props} width={mobile ? '100vw' : SIDE_PANEL_WIDTHS[size]} />;
}
