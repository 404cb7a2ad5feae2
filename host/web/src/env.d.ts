declare module '*.css';
declare module '@arco-design/web-react/*/react-19-adapter';
// The react-router package itself, under a name the shared 'react-router' module does not intercept (src/router.ts).
declare module 'tessera-react-router-package' {
  export * from 'react-router';
}
