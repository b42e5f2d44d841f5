import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** Any UI path the app does not know (deep links included). */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <Stack gap="sm" aria-labelledby="not-found-title" component="section">
      <Title order={1} size="h2" id="not-found-title">
        Page not found
      </Title>
      <Text>
        There is no page at <code>{location.pathname}</code>.
      </Text>
      <Anchor component={Link} to="/">
        Go to the dashboard
      </Anchor>
    </Stack>
  );
}
