import { Textarea, TextInput } from '@mantine/core';
import { IMAGE_NAME_PATTERN, IMAGE_SLUG_PATTERN, type OsImage, type OsImageUpdate } from '@contracts/os-images';
import { useEffect, useState } from 'react';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const NAME = new RegExp(IMAGE_NAME_PATTERN);
const SLUG = new RegExp(IMAGE_SLUG_PATTERN);

type Field = 'name' | 'slug' | 'description';

/** PUT /os-images/{id}: name, slug (the URL segment of the mount and extraction) and description. */
export function EditImageDialog({ image, opened, onClose }: { image: OsImage; opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ name: image.name, slug: image.slug, description: image.description });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setValues({ name: image.name, slug: image.slug, description: image.description });
      setErrors({});
      setFormError(null);
    }
  }, [opened, image]);
  const save = useApiAction((api, body: OsImageUpdate) => api.osImages.update(image.id, body), {
    invalidate: [keys.osImages],
    notifyErrors: false,
    success: (saved) => `Image ${saved.name} saved.`,
    onSuccess: onClose,
  });
  const set = (field: Field) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={`Edit ${image.name}`}
      error={formError}
      submitLabel="Save image"
      pending={save.isPending}
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        const next: Partial<Record<Field, string>> = {};
        if (!NAME.test(values.name.trim())) next.name = 'Letters, digits, space . _ ( ) + -, starting with a letter or digit (at most 128)';
        if (!SLUG.test(values.slug.trim())) next.slug = 'Lower-case letters, digits . _ -, starting with a letter or digit (at most 64)';
        if (values.description.length > 1024) next.description = 'At most 1024 characters';
        setErrors(next);
        if (Object.keys(next).length > 0) return;
        const body: OsImageUpdate = {};
        if (values.name.trim() !== image.name) body.name = values.name.trim();
        if (values.slug.trim() !== image.slug) body.slug = values.slug.trim();
        if (values.description !== image.description) body.description = values.description;
        save.mutate(body, {
          onError: (error) => setFormError(applyServerErrors({ setFieldError: (field, message) => setErrors((current) => ({ ...current, [field]: message })) }, error, { fields: ['name', 'slug', 'description'] })),
        });
      }}
    >
      <TextInput label="Name" value={values.name} onChange={set('name')} error={errors.name} withAsterisk data-autofocus />
      <TextInput
        label="Slug"
        description={`The mounted content is served under /boot/iso/${values.slug || '<slug>'}/ and extracted to images/${values.slug || '<slug>'}/: profiles using the old one must follow.`}
        className="mono"
        value={values.slug}
        onChange={set('slug')}
        error={errors.slug}
        withAsterisk
      />
      <Textarea label="Description" autosize minRows={2} value={values.description} onChange={set('description')} error={errors.description} />
    </FormDialog>
  );
}
