declare module '*.css';
declare module '@arco-design/web-react/*/react-19-adapter';
