import { graphql } from '../../apollo/generated';

export const StoreProductQuery = graphql(`
  query StoreProduct($id: Int!, $locale: String) {
    product(id: $id, locale: $locale) {
      id
      name
      description
      price
      compareAtPrice
      status
      tags
      productTypeId
      mainImage {
        id
        filePath
        thumbnailPath
        width
        height
        srcSet
      }
      productType {
        id
        name
      }
      associatedImages {
        id
        filePath
        thumbnailPath
        friendlyName
        width
        height
        srcSet
      }
      eGreetingCard {
        messageLocation
        fontName
        defaultMessage
        coverImage {
          id
          filePath
          thumbnailPath
          width
          height
          srcSet
        }
        greetingImage {
          id
          filePath
          thumbnailPath
          width
          height
          srcSet
        }
        backImage {
          id
          filePath
          thumbnailPath
          width
          height
          srcSet
        }
        song1 {
          id
          filePath
          friendlyName
        }
        song2 {
          id
          filePath
          friendlyName
        }
        song3 {
          id
          filePath
          friendlyName
        }
      }
    }
  }
`);
