// An error the server reports to a person as is: a status and a plain message.
export class ServiceError extends Error {
  constructor(
    public status: 400 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const notFound = (what = 'No game is behind this link. It may have been retired or mistyped.') =>
  new ServiceError(404, what);
