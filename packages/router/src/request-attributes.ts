/** Request attributes the router sets besides the kernel's `_route`, `_controller` and `_route_params`. */
declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Absolute URL a trailing-slash (or scheme) redirect points to; read by the redirect controller. */
    _redirect_url?: string;
  }
}

export {};
