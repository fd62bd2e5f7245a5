import { graphql } from '../../apollo/generated';

export const CategoryFields = graphql(`
  fragment CategoryFields on Category {
    id
    name
    parentId
    mediaId
    imagePath
    imageThumbnailPath
  }
`);

export const CategoriesQuery = graphql(`
  query Categories {
    categories {
      ...CategoryFields
    }
  }
`);

export const CreateCategoryMutation = graphql(`
  mutation CreateCategory($input: CategoryInput!) {
    createCategory(input: $input) {
      ...CategoryFields
    }
  }
`);

export const UpdateCategoryMutation = graphql(`
  mutation UpdateCategory($id: Int!, $input: CategoryInput!) {
    updateCategory(id: $id, input: $input) {
      ...CategoryFields
    }
  }
`);

export const DeleteCategoryMutation = graphql(`
  mutation DeleteCategory($id: Int!) {
    deleteCategory(id: $id)
  }
`);

export const ProductTypesQuery = graphql(`
  query ProductTypes {
    productTypes {
      id
      name
    }
  }
`);

export const CreateProductTypeMutation = graphql(`
  mutation CreateProductType($name: String!) {
    createProductType(name: $name) {
      id
      name
    }
  }
`);

export const UpdateProductTypeMutation = graphql(`
  mutation UpdateProductType($id: Int!, $name: String!) {
    updateProductType(id: $id, name: $name) {
      id
      name
    }
  }
`);

export const DeleteProductTypeMutation = graphql(`
  mutation DeleteProductType($id: Int!) {
    deleteProductType(id: $id)
  }
`);

/** What a product list row shows. */
export const ProductListFields = graphql(`
  fragment ProductListFields on Product {
    id
    name
    description
    price
    status
    categoryId
    productTypeId
    mainImageThumbnailPath
  }
`);

export const CategoryProductsQuery = graphql(`
  query CategoryProducts($categoryId: Int!, $first: Int, $after: String) {
    products(categoryId: $categoryId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...ProductListFields
        }
      }
    }
  }
`);

export const PickedMediaFields = graphql(`
  fragment PickedMediaFields on MediaFile {
    id
    fileName
    filePath
    friendlyName
    thumbnailPath
    kind
    mimeType
    size
  }
`);

/** Everything the product form edits. */
export const ProductFormFields = graphql(`
  fragment ProductFormFields on Product {
    ...ProductListFields
    regularPrice
    regularCompareAtPrice
    sku
    tags
    mainImage {
      ...PickedMediaFields
    }
    associatedImages {
      ...PickedMediaFields
    }
    translations {
      locale
      name
      description
      defaultMessage
    }
    eGreetingCard {
      messageLocation
      fontName
      defaultMessage
      song1 { ...PickedMediaFields }
      song2 { ...PickedMediaFields }
      song3 { ...PickedMediaFields }
      coverImage { ...PickedMediaFields }
      greetingImage { ...PickedMediaFields }
      backImage { ...PickedMediaFields }
      extraImage1 { ...PickedMediaFields }
      extraImage2 { ...PickedMediaFields }
      extraImage3 { ...PickedMediaFields }
    }
  }
`);

export const ProductDetailsQuery = graphql(`
  query ProductDetails($id: Int!) {
    product(id: $id) {
      ...ProductFormFields
    }
  }
`);

export const CreateProductMutation = graphql(`
  mutation CreateProduct($input: ProductInput!) {
    createProduct(input: $input) {
      ...ProductFormFields
    }
  }
`);

export const UpdateProductMutation = graphql(`
  mutation UpdateProduct($id: Int!, $input: ProductInput!) {
    updateProduct(id: $id, input: $input) {
      ...ProductFormFields
    }
  }
`);

export const DeleteProductMutation = graphql(`
  mutation DeleteProduct($id: Int!) {
    deleteProduct(id: $id)
  }
`);
