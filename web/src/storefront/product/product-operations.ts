import { graphql } from '../../apollo/generated';

export const StoreProductQuery = graphql(`
  query StoreProduct($id: Int!) {
    product(id: $id) {
      id
      name
      description
      price
      tags
      productTypeId
      mainImagePath
      productType {
        id
        name
      }
      associatedImages {
        id
        filePath
        thumbnailPath
        friendlyName
      }
      eGreetingCard {
        messageLocation
        fontName
        coverImage {
          id
          filePath
        }
        greetingImage {
          id
          filePath
        }
        backImage {
          id
          filePath
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
