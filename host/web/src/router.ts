// The router the studio shares with extensions' client halves (Module Federation's 'react-router'): its
// declarative API, one instance for every page (the studio owns the router; a page links, reads its
// parameters and navigates). Shared whole, the package would bring its data routers, server rendering and
// React Server Components to the first page (60 KiB gzip); these exports are what a page uses (13 KiB).
export {
  BrowserRouter,
  createPath,
  createSearchParams,
  generatePath,
  HashRouter,
  Link,
  matchPath,
  matchRoutes,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  parsePath,
  resolvePath,
  Route,
  Routes,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from 'tessera-react-router-package';
