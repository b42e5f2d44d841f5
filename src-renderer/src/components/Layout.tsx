import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { describeError } from '../api/api-error.js';
import { useSession } from '../app-state.js';

/** Header with navigation and the signed-in user; pages render below. */
export function Layout() {
  const session = useSession((state) => state.session);
  const logout = useSession((state) => state.logout);
  const [logoutError, setLogoutError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  const onLogout = async () => {
    setLeaving(true);
    setLogoutError(null);
    try {
      await logout();
    } catch (err) {
      setLogoutError(describeError(err));
      setLeaving(false);
    }
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">Bootwright</span>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/services">Services</NavLink>
            </li>
          </ul>
        </nav>
        <div className="user">
          {session && (
            <span className="muted">
              {session.via === 'local' ? 'Desktop (local admin)' : `${session.user.username} · ${session.role}`}
            </span>
          )}
          {/* The desktop user has no session to end. */}
          {session && session.via === 'session' && (
            <button type="button" className="button" onClick={onLogout} disabled={leaving}>
              {leaving ? 'Logging out…' : 'Log out'}
            </button>
          )}
        </div>
      </header>
      {logoutError && (
        <p className="alert alert-error banner" role="alert">
          Logout failed: {logoutError}
        </p>
      )}
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
