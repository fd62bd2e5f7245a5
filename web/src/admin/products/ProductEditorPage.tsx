import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { AnchorButton, Button, Callout, Card, FormGroup, H2, H5, HTMLSelect, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { ProductInput } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { UnsavedChangesAlert } from '../../common/UnsavedChangesAlert';
import { useUnsavedChanges } from '../../common/use-unsaved-changes';
import { placeProduct } from '../catalogue/catalogue-cache';
import { CreateProductMutation, ProductDetailsQuery, ProductTypesQuery, UpdateProductMutation } from '../catalogue/catalogue-operations';
import { useCategoryOptions } from '../catalogue/category-options';
import { AdditionalImagesField, CardFields, MainImageField, PriceFields, StatusField, TagsField } from '../catalogue/product-form/ProductFormParts';
import { NO_CATEGORY } from '../catalogue/product-form/product-form-rules';
import { E_GREETING_CARD_TYPE, emptyProductForm, productFormFrom } from '../catalogue/product-form/product-form-state';
import { useProductForm } from '../catalogue/product-form/use-product-form';
import { AdminShell } from '../shell/AdminShell';
import { ProductContentTabs } from './ProductContentTabs';
import { CommandPalette } from '../shell/CommandPalette';
import { AdminsOnly, useConsoleRole } from '../shell/console-role';
import '../catalogue/product-form/product-form.css';
import './product-editor.css';

const idParam = (value: string | null | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * The product editor as a page (contract section 16): `/admindash/products/{id}` and
 * `/admindash/products/new?type=&category=`. The form's parts in sections (basics with a tab per language, images, the card,
 * status, pricing, where it is filed), a file dropped onto any image or song slot uploaded into the
 * media library and used there, and a question before leaving with unsaved changes.
 */
export default function ProductEditorPage() {
  const role = useConsoleRole();
  const navigate = useNavigate();
  if (role !== 'admin') return <AdminsOnly />;
  return (
    <AdminShell view="products" role={role} onSelect={(view) => void navigate(`/admindash?view=${view}`)} tools={<CommandPalette role={role} />}>
      <ProductEditor />
    </AdminShell>
  );
}

function ProductEditor() {
  const { id: idText } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = idParam(idText);
  const isNew = idText === 'new';

  const details = useQuery(ProductDetailsQuery, { variables: { id: id ?? 0 }, skip: id === null });
  const types = useQuery(ProductTypesQuery);
  const categoryOptions = useCategoryOptions();
  const [createProduct] = useMutation(CreateProductMutation);
  const [updateProduct] = useMutation(UpdateProductMutation);

  const product = details.data?.product;
  const { api, dirty, saving, formError, reset, save } = useProductForm(emptyProductForm());
  const [typeId, setTypeId] = useState(() => idParam(params.get('type')) ?? E_GREETING_CARD_TYPE);
  const [categoryId, setCategoryId] = useState<number | null>(() => idParam(params.get('category')));
  const [categoryError, setCategoryError] = useState<string | null>(null);
  const unsaved = dirty || (product !== undefined && categoryId !== product.categoryId);
  const { blocker, allowNavigation } = useUnsavedChanges(unsaved);

  // The form is filled when a product is opened, not when a save or a refetch brings the same product
  // back (a new product's page reads it after it was made): what is being typed stays.
  const filledFor = useRef<number | null>(null);
  useEffect(() => {
    if (!product || filledFor.current === product.id) return;
    filledFor.current = product.id;
    reset(productFormFrom(product));
    setTypeId(product.productTypeId);
    setCategoryId(product.categoryId);
  }, [product, reset]);

  if (!isNew && id === null) return <NotFound />;
  if (!isNew && details.error) return <NotFound />;
  if (!isNew && !product) return <Spinner className="product-editor-state" />;

  const typeName = types.data?.productTypes.find((t) => t.id === typeId)?.name ?? 'product';
  const isCard = typeId === E_GREETING_CARD_TYPE;

  const onSubmit = async (input: ProductInput) => {
    try {
      if (product) {
        const previousCategoryId = product.categoryId;
        await updateProduct({ variables: { id: product.id, input }, update: (cache, { data }) => data && placeProduct(cache, data.updateProduct, { created: false, previousCategoryId }) });
      } else {
        const { data } = await createProduct({ variables: { input }, update: (cache, { data }) => data && placeProduct(cache, data.createProduct, { created: true }) });
        allowNavigation();
        if (data) filledFor.current = data.createProduct.id;
        if (data) void navigate(`/admindash/products/${data.createProduct.id}`, { replace: true });
      }
      void snackbar('Product saved successfully!');
    } catch (error) {
      reportError('saving product', 'Failed to save product', error);
      throw error;
    }
  };

  const discard = () => {
    if (!product) return;
    reset(productFormFrom(product));
    setCategoryId(product.categoryId);
  };

  const submit = () => {
    if (categoryId === null) {
      setCategoryError(NO_CATEGORY);
      return;
    }
    setCategoryError(null);
    void save({ categoryId, productTypeId: typeId }, onSubmit);
  };

  return (
    <form
      className="product-editor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="product-editor-head">
        <Button variant="minimal" icon="arrow-left" text="Products" aria-label="Products" onClick={() => void navigate('/admindash?view=products')} />
        <H2 className="product-editor-title">{product ? product.name : `New ${typeName.toLowerCase()}`}</H2>
        {product && product.status !== 'ACTIVE' && (
          <Tag minimal round intent={product.status === 'DRAFT' ? 'warning' : 'none'}>
            {product.status === 'DRAFT' ? 'Draft' : 'Archived'}
          </Tag>
        )}
        <span className="product-editor-spacer" />
        {product && <AnchorButton variant="minimal" icon="share" text="View in shop" href={`/product/${product.id}`} target="_blank" rel="noopener" />}
      </div>
      {formError && (
        <Callout intent="danger" icon="error" className="product-form-error">
          {formError}
        </Callout>
      )}
      <div className="product-editor-columns">
        <div className="product-editor-main">
          <Card className="product-editor-section">
            <H5>Basics</H5>
            <ProductContentTabs api={api} isCard={isCard} autoFocus={isNew} />
            <TagsField api={api} />
          </Card>
          <Card className="product-editor-section">
            <H5>Images</H5>
            <p className="muted product-editor-hint">Drop a file onto any image or song slot to upload it into the media library and use it there.</p>
            <div className="product-editor-images">
              <MainImageField api={api} />
              <AdditionalImagesField api={api} />
            </div>
          </Card>
          {isCard && (
            <Card className="product-editor-section">
              <H5>E-greeting card</H5>
              <CardFields api={api} titled={false} />
            </Card>
          )}
        </div>
        <aside className="product-editor-side">
          <Card className="product-editor-section">
            <H5>Status</H5>
            <StatusField api={api} />
          </Card>
          <Card className="product-editor-section">
            <H5>Pricing</H5>
            <PriceFields api={api} />
          </Card>
          <Card className="product-editor-section">
            <H5>Organisation</H5>
            <FormGroup label="Type" labelFor="product-type" helperText={isNew ? undefined : 'A product keeps its type.'}>
              <HTMLSelect id="product-type" value={String(typeId)} disabled={!isNew} onChange={(e) => setTypeId(Number(e.currentTarget.value))} options={(types.data?.productTypes ?? []).map((t) => ({ value: String(t.id), label: t.name }))} fill />
            </FormGroup>
            <FormGroup label="Category" labelFor="product-category" labelInfo="(required)" intent={categoryError || api.errors.categoryId ? 'danger' : 'none'} helperText={categoryError ?? api.errors.categoryId}>
              <HTMLSelect
                id="product-category"
                value={categoryId === null ? '' : String(categoryId)}
                onChange={(e) => {
                  setCategoryId(e.currentTarget.value ? Number(e.currentTarget.value) : null);
                  setCategoryError(null);
                }}
                options={[{ value: '', label: 'Choose a category…', disabled: true }, ...categoryOptions.map((c) => ({ value: String(c.id), label: c.label }))]}
                fill
              />
            </FormGroup>
          </Card>
        </aside>
      </div>
      {/* Save stays in reach at the bottom of the screen, however long the form. */}
      <div className={`product-editor-savebar${unsaved ? ' product-editor-savebar-dirty' : ''}`}>
        <span className="product-editor-dirty">{unsaved ? 'Unsaved changes' : product ? 'All changes saved' : ''}</span>
        {unsaved && product && <Button text="Discard" onClick={discard} />}
        <Button type="submit" intent="primary" icon="floppy-disk" text="Save" loading={saving} />
      </div>
      <UnsavedChangesAlert blocker={blocker} />
    </form>
  );
}

function NotFound() {
  const navigate = useNavigate();
  return <NonIdealState icon="search" title="Product not found" description="It may have been deleted." action={<Button text="All products" icon="arrow-left" onClick={() => void navigate('/admindash?view=products')} />} />;
}
