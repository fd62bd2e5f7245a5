import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import { MediaBrowserDialog } from '../../../common/media-browser/MediaBrowserDialog';

export interface CategoryImage {
  id: number;
  path: string;
  name?: string;
}

export type CategoryDialogMode =
  | { kind: 'root' }
  | { kind: 'sub'; parentId: number; parentName: string }
  | { kind: 'edit'; id: number; name: string; image: CategoryImage | null };

const TITLES = { root: 'Create Top Level Category', sub: 'Create Subcategory', edit: 'Edit Category' } as const;

/**
 * Creates a category (top level or under the selected one) or edits one: its name and, when editing,
 * its image from the Media Browser. An empty name does nothing.
 */
export function CategoryDialog({
  mode,
  onClose,
  onSubmit,
}: {
  mode: CategoryDialogMode | null;
  onClose: () => void;
  onSubmit: (values: { name: string; mediaId?: number | null }) => void;
}) {
  const [name, setName] = useState('');
  const [image, setImage] = useState<CategoryImage | null>(null);
  const [browsing, setBrowsing] = useState(false);

  useEffect(() => {
    if (!mode) return;
    setName(mode.kind === 'edit' ? mode.name : '');
    setImage(mode.kind === 'edit' ? mode.image : null);
  }, [mode]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    onSubmit(mode?.kind === 'edit' ? { name: name.trim(), mediaId: image?.id ?? null } : { name: name.trim() });
  };

  return (
    <Dialog isOpen={mode !== null} onClose={onClose} title={mode ? TITLES[mode.kind] : ''} icon={mode?.kind === 'edit' ? 'edit' : 'folder-new'}>
      <form onSubmit={submit}>
        <DialogBody>
          {mode?.kind === 'sub' && (
            <p className="muted">
              Inside <strong>{mode.parentName}</strong>
            </p>
          )}
          <FormGroup label="Category name" labelFor="category-name">
            <InputGroup id="category-name" value={name} onValueChange={setName} autoFocus maxLength={200} />
          </FormGroup>
          {mode?.kind === 'edit' && (
            <FormGroup label="Image">
              <div className="category-image-field">
                {image ? (
                  <img className="category-image-preview" src={`/api/${image.path}`} alt={image.name ?? 'Category image'} />
                ) : (
                  <span className="category-image-preview category-image-empty">
                    <Icon icon="media" size={28} />
                  </span>
                )}
                <div className="category-image-actions">
                  <Button icon="media" text="Choose Image" onClick={() => setBrowsing(true)} />
                  {image && <Button variant="minimal" icon="cross" text="Remove image" onClick={() => setImage(null)} />}
                </div>
              </div>
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="cancel" text="Cancel" onClick={onClose} />,
            <Button key="ok" type="submit" intent="primary" text={mode?.kind === 'edit' ? 'Save' : 'Create'} />,
          ]}
        />
      </form>
      <MediaBrowserDialog
        isOpen={browsing}
        kind="IMAGE"
        onClose={() => setBrowsing(false)}
        onSelect={(file) => setImage({ id: file.id, path: file.thumbnailPath ?? file.filePath, name: file.friendlyName })}
      />
    </Dialog>
  );
}
