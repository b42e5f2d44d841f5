import { Alert, Button, Stack, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** A page that throws while rendering shows the error instead of a blank window; navigating away resets it (keyed by path). */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" title="This page failed" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{this.state.error.message}</Text>
          <Button size="xs" variant="white" color="red" onClick={() => this.setState({ error: null })}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
}
