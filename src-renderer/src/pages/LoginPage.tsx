import { useId, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import type { ApiError } from '../api/api-error.js';
import { useSession } from '../app-state.js';
import { safeNextPath } from '../format.js';

function loginErrorText(error: ApiError): string {
  if (error.status === 429) {
    const wait = error.retryAfterSeconds;
    return `Too many login attempts. ${wait !== null ? `Try again in ${wait} second${wait === 1 ? '' : 's'}.` : 'Try again later.'}`;
  }
  if (error.status === 401) return 'Wrong username or password.';
  return error.message;
}

/** The browser login form (POST /auth/login sets the session cookie). */
export function LoginPage() {
  const status = useSession((state) => state.status);
  const loggingIn = useSession((state) => state.loggingIn);
  const loginError = useSession((state) => state.loginError);
  const login = useSession((state) => state.login);
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();

  if (status === 'authenticated') return <Navigate to={safeNextPath(params.get('next'))} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await login(username.trim(), password);
    if (!ok) setPassword('');
  };

  return (
    <main className="login" id="main">
      <form className="login-card" onSubmit={submit} aria-describedby={loginError ? errorId : undefined}>
        <h1>Bootwright</h1>
        <p className="muted">Sign in to manage the network boot server.</p>
        {loginError && (
          <p className="alert alert-error" role="alert" id={errorId}>
            {loginErrorText(loginError)}
          </p>
        )}
        <label htmlFor="login-username">Username</label>
        <input
          id="login-username"
          name="username"
          autoComplete="username"
          required
          autoFocus
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="button button-primary" disabled={loggingIn}>
          {loggingIn ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
