// Module Federation needs an async boundary before shared modules (react, the SDK, Arco) are used.
void import('./bootstrap.tsx');
