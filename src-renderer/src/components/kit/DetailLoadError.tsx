import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { PageHeader } from '../PageHeader.js';
import { LoadError } from '../QueryState.js';

export interface DetailLoadErrorProps {
  /** The record's kind, lower case ("host"). */
  what: string;
  id: number;
  /** The list page to go back to, and what it lists ("/hosts", "hosts"). */
  listPath: string;
  listName: string;
  error: unknown;
  onRetry: () => void;
}

/** A detail page whose record did not load: a not-found page for a 404, else the error with Retry. */
export function DetailLoadError({ what, id, listPath, listName, error, onRetry }: DetailLoadErrorProps) {
  if (isApiError(error) && error.status === 404) {
    return (
      <Stack>
        <PageHeader title={`${what.charAt(0).toUpperCase()}${what.slice(1)} not found`} />
        <Text>
          There is no {what} #{id}.{' '}
          <Anchor component={Link} to={listPath}>
            Back to the {listName}
          </Anchor>
        </Text>
      </Stack>
    );
  }
  return <LoadError what={`the ${what}`} error={error} onRetry={onRetry} />;
}
