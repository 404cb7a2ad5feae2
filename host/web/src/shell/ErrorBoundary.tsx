import { Component, lazy, Suspense, type ReactNode } from 'react';

// What a broken page shows instead: its code loads when a page first fails.
const PageError = lazy(() => import('./PageError.tsx').then((m) => ({ default: m.PageError })));

interface Props {
  /** The extension whose page this is, for the report. */
  owner?: string;
  report(e: {
    source: string;
    message: string;
    error: unknown;
    extensionId?: string;
    detail?: Record<string, unknown>;
  }): void;
  children: ReactNode;
  /** What to show instead of the page-error message (panels show nothing). */
  fallback?: ReactNode;
}

/** Wraps every contributed page: a render error is reported to the error sinks and a fallback shown. */
export class PageErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: { componentStack?: string | null }) {
    this.props.report({
      source: 'render',
      message: `render error${this.props.owner ? ` in '${this.props.owner}'` : ''}: ${error.message}`,
      error,
      extensionId: this.props.owner,
      detail: { componentStack: info.componentStack?.slice(0, 2000) },
    });
  }

  override render() {
    if (this.state.error)
      return this.props.fallback !== undefined ? (
        this.props.fallback
      ) : (
        <Suspense fallback={null}>
          <PageError onRetry={() => this.setState({ error: null })} />
        </Suspense>
      );
    return this.props.children;
  }
}
