import { Spin } from '@arco-design/web-react';

/** While a page's code arrives (pages may be React.lazy: an area's code loads when its page opens). */
export function PageLoading() {
  return (
    <div data-testid="page-loading" style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin />
    </div>
  );
}
