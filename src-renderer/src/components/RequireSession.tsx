import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../app-state.js';

/** Renders its children for a signed-in user; otherwise the login page (coming back here afterwards). */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useSession((state) => state.status);
  const checkError = useSession((state) => state.checkError);
  const check = useSession((state) => state.check);
  const location = useLocation();

  if (status === 'checking') {
    return (
      <p className="centered" role="status">
        Checking session…
      </p>
    );
  }
  if (status === 'error') {
    return (
      <div className="centered" role="alert">
        <p>Cannot reach the Bootwright server: {checkError}</p>
        <button type="button" className="button" onClick={() => void check()}>
          Retry
        </button>
      </div>
    );
  }
  if (status === 'anonymous') {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
