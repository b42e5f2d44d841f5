import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import type { ApiError } from '../api/api-error.js';
import { useSession } from '../app-state.js';
import { TOGGLE_PROPS } from '../components/password-toggle.js';
import { safeNextPath } from '../format.js';

export function loginErrorText(error: ApiError): string {
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

  useEffect(() => {
    document.title = 'Sign in · Bootwright';
  }, []);

  if (status === 'authenticated') return <Navigate to={safeNextPath(params.get('next'))} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await login(username.trim(), password);
    if (!ok) setPassword('');
  };

  return (
    <Center component="main" id="main" mih="100vh" p="md" className="login-page">
      <Paper component="form" onSubmit={submit} withBorder shadow="sm" p="xl" w={380} radius="md" aria-describedby={loginError ? errorId : undefined}>
        <Stack>
          <div>
            <Title order={1} size="h2">
              Bootwright
            </Title>
            <Text c="dimmed" size="sm">
              Sign in to manage the network boot server.
            </Text>
          </div>
          {loginError && (
            <Alert color="red" role="alert" id={errorId}>
              {loginErrorText(loginError)}
            </Alert>
          )}
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            required
            withAsterisk={false}
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <PasswordInput
            visibilityToggleButtonProps={TOGGLE_PROPS}
            label="Password"
            name="password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Button type="submit" loading={loggingIn} fullWidth>
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
