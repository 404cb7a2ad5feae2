import { Input, Message, Typography } from '@arco-design/web-react';
import type { ModalProps, TableProps } from '@arco-design/web-react';
import {
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type CSSProperties,
  type ReactElement,
  type ReactNode,
} from 'react';
import { useSearchParams } from 'react-router';
import { NOTICE_TOP_OFFSET } from '../areas.ts';
import type { ApiError } from '../api.ts';
import { lazyView } from './lazy.tsx';
import { PageHeader } from './page.tsx';

// ---- toasts: info, success, warning, error, 80 px from the top (spec 000 section 9).
Message.config({ duration: 3000, maxCount: 5 });
// The offset itself is set by the web host's stylesheet (.arco-message-wrapper-top), from NOTICE_TOP_OFFSET.
export const toast = {
  info: (content: ReactNode, duration?: number) => Message.info({ content, duration }),
  success: (content: ReactNode, duration?: number) => Message.success({ content, duration }),
  warning: (content: ReactNode, duration?: number) => Message.warning({ content, duration }),
  error: (content: ReactNode, duration?: number) => Message.error({ content, duration }),
};
export const TOAST_TOP_OFFSET = NOTICE_TOP_OFFSET;

// ---- search input that does not fire while an IME composition is in progress.
export interface SearchInputProps {
  value?: string;
  placeholder?: string;
  /** Called on every settled change (not during composition) and when composition ends. */
  onSearch(text: string): void;
  /** Debounce in ms (default 300; 0 fires at once). */
  debounceMs?: number;
  allowClear?: boolean;
  className?: string;
  'data-testid'?: string;
}

export function SearchInput({
  value,
  placeholder,
  onSearch,
  debounceMs = 300,
  allowClear = true,
  className,
  ...rest
}: SearchInputProps) {
  const [text, setText] = useState(value ?? '');
  const composing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Arco's Input also reports the composed text through onChange: fire once per distinct value.
  const last = useRef<string | undefined>(value);
  const fire = (t: string) => {
    if (t === last.current) return;
    last.current = t;
    clearTimeout(timer.current);
    if (debounceMs <= 0) onSearch(t);
    else timer.current = setTimeout(() => onSearch(t), debounceMs);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Input.Search
      className={className}
      data-testid={rest['data-testid']}
      value={text}
      allowClear={allowClear}
      placeholder={placeholder}
      onChange={(v) => {
        setText(v);
        if (!composing.current) fire(v);
      }}
      onCompositionStart={() => {
        composing.current = true;
      }}
      onCompositionEnd={(e) => {
        composing.current = false;
        const v = (e.target as HTMLInputElement).value;
        setText(v);
        fire(v);
      }}
      onSearch={(v) => {
        clearTimeout(timer.current);
        last.current = v;
        onSearch(v);
      }}
    />
  );
}

// ---- modal that does not close on a click outside it.
export const MODAL_WIDTHS = { small: 446, medium: 560, large: 794, xlarge: 1138 } as const;

// Arco's Modal loads with the first page that has a dialog.
const ArcoModal = lazyView(
  () => import('./arco-modal.ts').then((m) => m.Modal as ComponentType<ModalProps & { children?: ReactNode }>),
  { fallback: null },
);

export function Modal(props: ModalProps & { size?: keyof typeof MODAL_WIDTHS; children?: ReactNode }) {
  const { size, style, ...rest } = props;
  return (
    <ArcoModal
      maskClosable={false}
      style={{ width: size ? MODAL_WIDTHS[size] : undefined, maxWidth: 'calc(100vw - 32px)', ...style }}
      {...rest}
    />
  );
}

// ---- a table that loads the next page when its end scrolls into view.
export interface Page<T> {
  items: T[];
  /** Cursor of the next page; undefined when there is none. */
  next?: string | number;
}

export interface InfiniteTableProps<T> extends Omit<TableProps<T>, 'data' | 'pagination' | 'loading'> {
  queryKey: unknown[];
  fetchPage(cursor: string | number | undefined): Promise<Page<T>>;
  empty?: ReactNode;
}

// The table's code (Arco's Table) loads when a page first draws one.
export const InfiniteTable = lazyView<InfiniteTableProps<object>>(() =>
  import('./infinite-table.tsx').then((m) => m.InfiniteTable as unknown as ComponentType<InfiniteTableProps<object>>),
) as <T extends object>(props: InfiniteTableProps<T>) => ReactElement;

/**
 * A name (or any limited text) field: the limit shows as the user types, and the server's problem with
 * the value shows under it, its one place (see `fieldErrors`).
 */
export function LimitedInput({
  value,
  onChange,
  maxLength,
  problem,
  placeholder,
  testId,
}: {
  value: string;
  onChange(v: string): void;
  maxLength: number;
  problem?: string;
  placeholder?: string;
  testId?: string;
}) {
  return (
    <>
      <Input
        value={value}
        onChange={onChange}
        maxLength={maxLength}
        showWordLimit
        status={problem ? 'error' : undefined}
        placeholder={placeholder}
        data-testid={testId}
      />
      {problem && (
        <Typography.Text type="error" style={{ fontSize: 12 }} data-testid={testId ? `${testId}-problem` : undefined}>
          {problem}
        </Typography.Text>
      )}
    </>
  );
}

/**
 * For a call's `handled`: an error the server ties to one of these fields (`data.field`) is given to
 * `show` and shown by that field (no notice, no error panel); other errors go their usual way.
 */
export function fieldErrors(fields: string[], show: (field: string, msg: string) => void): (err: ApiError) => boolean {
  return (err) => {
    const field = err.detail?.field;
    if (typeof field !== 'string' || !fields.includes(field)) return false;
    show(field, err.msg);
    return true;
  };
}

/** The top of a list page: its title, a line saying what it holds, and its main action on the right. */
/** A page's title, intro and action: the page header (PageHeader) under its older name. */
export function PageHeading({ title, intro, action }: { title: ReactNode; intro?: ReactNode; action?: ReactNode }) {
  return <PageHeader title={title} intro={intro} actions={action} />;
}

/** A JSON schema's object properties (as a server sends a zod schema with z.toJSONSchema). */
export interface FieldsSchema {
  properties?: Record<string, { type?: string; description?: string }>;
}

/**
 * Inputs for the properties of a small settings schema: a list of strings as tags, anything else as text
 * (a connector's settings: the Web SDK's allowed origins ...). `label(field)` names a field.
 */
export const SchemaFields = lazyView(() => import('./schema-fields.tsx').then((m) => m.SchemaFields));

/**
 * A list page's create dialog: open at once when the address asks (`?create=1`, as the home page's create
 * buttons and resource kinds' `createPath` do); closing it takes the request out of the address.
 */
export function useCreateDialog(): { open: boolean; show(): void; close(): void } {
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(() => params.get('create') === '1');
  return {
    open,
    show: () => setOpen(true),
    close: () => {
      setOpen(false);
      if (params.has('create')) setParams((p) => (p.delete('create'), p), { replace: true });
    },
  };
}

const LIST_ROW = {
  display: 'flex',
  gap: 12,
  alignItems: 'center',
  padding: '10px 0',
  borderBottom: '1px solid var(--color-border-1)',
} as const;

/** One line of a settings-like list (an app, a key, a connection): its parts in a row, a rule under it. */
export function ListRow({ children, testId, style }: { children: ReactNode; testId?: string; style?: CSSProperties }) {
  return (
    <div className="tessera-list-row" data-testid={testId} style={style ? { ...LIST_ROW, ...style } : LIST_ROW}>
      {children}
    </div>
  );
}

/**
 * A test id for props that are an object, not JSX (a modal's `okButtonProps`, a select's `triggerProps`): JSX takes
 * `data-testid` on any element, an object literal of a component's props type does not. `{ disabled, ...testId('x') }`
 */
export function testId(id: string): object {
  return { 'data-testid': id };
}
