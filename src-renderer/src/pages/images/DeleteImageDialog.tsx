import { Alert, Checkbox, List, Modal, Stack, Text } from '@mantine/core';
import type { OsImage } from '@contracts/os-images';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError, isApiError } from '../../api/api-error.js';
import { DialogActions } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/** The 409's details as lines: what uses the image, however the server words each one. */
export function usersOf(error: unknown): string[] {
  if (!isApiError(error)) return [];
  return error.rawDetails
    .map((detail) => {
      if (typeof detail === 'string') return detail;
      if (typeof detail !== 'object' || detail === null) return null;
      const item = detail as Record<string, unknown>;
      if (typeof item.message === 'string') return typeof item.field === 'string' && item.field !== '' ? `${item.field}: ${item.message}` : item.message;
      const kind = typeof item.type === 'string' ? item.type : typeof item.kind === 'string' ? item.kind : null;
      const name = typeof item.name === 'string' ? item.name : typeof item.id === 'number' ? `#${item.id}` : null;
      return kind || name ? [kind, name].filter(Boolean).join(' ') : null;
    })
    .filter((line): line is string => line !== null);
}

function isSameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

/**
 * DELETE /os-images/{id}: asks first; an imported image keeps the user's
 * file unless "also delete the file" is ticked; a 409 names what uses the
 * image and offers to delete anyway (force).
 */
export function DeleteImageDialog({ image, opened, onClose }: { image: OsImage; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [deleteFile, setDeleteFile] = useState(false);
  const [conflict, setConflict] = useState<{ message: string; users: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setDeleteFile(false);
      setConflict(null);
      setError(null);
    }
  }, [opened]);
  const remove = useApiAction((api, force: boolean) => api.osImages.remove(image.id, { force, deleteFile }), {
    invalidate: [keys.files],
    notifyErrors: false,
    success: `Image ${image.name} deleted.`,
    onSuccess: () => {
      onClose();
      void navigate('/images');
      // The detail page is still mounted in this tick: refetching the deleted image now would only fetch a 404.
      const deleted = keys.osImage(image.id);
      void queryClient.invalidateQueries({ queryKey: deleted, exact: true, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: keys.osImages, predicate: (query) => !isSameKey(query.queryKey, deleted) });
    },
  });
  const keepsFile = image.source !== 'upload';
  return (
    <Modal opened={opened} onClose={onClose} title={`Delete image ${image.name}?`}>
      <Stack gap="sm">
        <Text size="sm">
          {keepsFile
            ? 'The image leaves Bootwright: it is unmounted and its extracted files are removed.'
            : 'The image and its uploaded file are deleted; it is unmounted and its extracted files are removed.'}
        </Text>
        {keepsFile && (
          <Checkbox
            label={
              <>
                Also delete the file <span className="mono">{image.path}</span>
              </>
            }
            checked={deleteFile}
            onChange={(event) => setDeleteFile(event.currentTarget.checked)}
          />
        )}
        {conflict && (
          <Alert color="orange" title="The image is in use" role="alert">
            <Text size="sm">{conflict.message}</Text>
            {conflict.users.length > 0 && (
              <List size="sm" mt={4}>
                {conflict.users.map((user) => (
                  <List.Item key={user}>{user}</List.Item>
                ))}
              </List>
            )}
            <Text size="sm" mt={4}>
              Deleting it anyway leaves them pointing at nothing.
            </Text>
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <DialogActions
          onCancel={onClose}
          confirmLabel={conflict ? 'Delete anyway' : 'Delete image'}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(conflict !== null, {
              onError: (failure) => {
                if (isApiError(failure) && failure.status === 409) setConflict({ message: failure.message, users: usersOf(failure) });
                else setError(describeError(failure));
              },
            })
          }
        />
      </Stack>
    </Modal>
  );
}
