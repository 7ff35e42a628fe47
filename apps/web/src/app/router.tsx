import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths.ts';
import { OidcCallback } from '../features/session/components/oidc-callback.tsx';
import { LoginCallbackRoute } from './routes/login-callback-route.tsx';
import { LogoutRoute } from './routes/logout-route.tsx';
import { UsersRoute } from './routes/users-route.tsx';

/** Declarative routes (SPEC.md §2): the data router would add weight the page does not need. */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<UsersRoute />} />
      <Route path={paths.oidcCallback} element={<OidcCallback />} />
      <Route path={paths.logout} element={<LogoutRoute />} />
      <Route path={paths.loginCallback} element={<LoginCallbackRoute />} />
      <Route path="*" element={<Navigate to={{ pathname: paths.users }} replace />} />
    </Routes>
  );
}
