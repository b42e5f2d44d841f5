import { useForm, type FormValidateInput, type UseFormReturnType } from '@mantine/form';
import { useEffect, useState } from 'react';
import { applyServerErrors } from '../../components/form-errors.js';
import type { Api } from '../../api/clients/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

/**
 * A settings section as a form: initial values from the server, saved with
 * PUT /settings/<section>, field errors from the answer put on the fields.
 */
export function useSectionForm<S extends object, F extends Record<string, unknown>, P extends object>(options: {
  /** The section's client, e.g. `(api) => api.settings.general`. */
  section: (api: Api) => { update(patch: P): Promise<S> };
  stored: S;
  toForm: (stored: S) => F;
  toBody: (form: F) => P;
  validate?: FormValidateInput<F>;
  /** API field → form field, when they differ. */
  mapError?: (path: string) => string | null;
}): { form: UseFormReturnType<F>; save: () => void; saving: boolean; formError: string | null } {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<F>({ initialValues: options.toForm(options.stored), ...(options.validate ? { validate: options.validate } : {}) });
  useEffect(() => {
    if (!form.isDirty()) {
      form.setValues(options.toForm(options.stored));
      form.resetDirty(options.toForm(options.stored));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options.stored]);
  const mutation = useApiAction((api, body: P) => options.section(api).update(body), {
    invalidate: [keys.settings, keys.status],
    notifyErrors: false,
    success: 'Settings saved.',
    onSuccess: (saved) => {
      form.setValues(options.toForm(saved));
      form.resetDirty(options.toForm(saved));
    },
  });
  const save = form.onSubmit((values) => {
    setFormError(null);
    mutation.mutate(options.toBody(values), {
      onError: (error) =>
        setFormError(
          applyServerErrors(form, error, options.mapError ? { map: options.mapError } : { fields: Object.keys(values) }),
        ),
    });
  }) as () => void;
  return { form, save, saving: mutation.isPending, formError };
}
